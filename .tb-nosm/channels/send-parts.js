function partWhere(index, total) {
  return total > 1 ? ` (part ${index + 1}/${total})` : "";
}
async function sendInParts(parts, progress, sendOne) {
  const from = progress?.partsSent ?? 0;
  for (let index = from; index < parts.length; index++) {
    const part = parts[index];
    if (part === void 0) continue;
    await sendOne(part, partWhere(index, parts.length), index > from);
    await progress?.onPartSent?.(index + 1);
  }
}
export {
  partWhere,
  sendInParts
};
