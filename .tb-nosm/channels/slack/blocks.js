const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3e3,
  headerText: 150,
  fieldText: 2e3,
  contextText: 3e3,
  fallbackText: 3e3,
  blockChars: 11e3
};
function blockChars(blocks) {
  let total = 0;
  for (const block of blocks) {
    switch (block.type) {
      case "header":
        total += block.text.text.length;
        break;
      case "section":
        total += block.text.text.length;
        for (const field of block.fields ?? []) total += field.text.length;
        break;
      case "context":
        for (const element of block.elements) total += element.text.length;
        break;
      case "divider":
        break;
    }
  }
  return total;
}
function withinLimits(payload) {
  if (payload.blocks.length > SLACK_LIMITS.blocks) return false;
  if (payload.text.length > SLACK_LIMITS.fallbackText) return false;
  if (blockChars(payload.blocks) > SLACK_LIMITS.blockChars) return false;
  return payload.blocks.every((block) => {
    if (block.type === "header") return block.text.text.length <= SLACK_LIMITS.headerText;
    if (block.type === "section") {
      const fields = block.fields ?? [];
      return block.text.text.length <= SLACK_LIMITS.sectionText && fields.length <= 10 && fields.every((field) => field.text.length <= SLACK_LIMITS.fieldText);
    }
    if (block.type === "context") {
      return block.elements.every((element) => element.text.length <= SLACK_LIMITS.contextText);
    }
    return true;
  });
}
export {
  SLACK_LIMITS,
  blockChars,
  withinLimits
};
