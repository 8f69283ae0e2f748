function messageForGroups(groups) {
  const [only] = groups;
  if (groups.length === 1 && only) return { type: "events", issuer: only.issuer, events: only.events };
  return { type: "batch", groups: [...groups] };
}
export {
  messageForGroups
};
