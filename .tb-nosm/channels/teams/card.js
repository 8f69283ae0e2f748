const TEAMS_MAX_BYTES = 2e4;
function teamsPayload(body) {
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          msteams: { width: "Full" },
          body
        }
      }
    ]
  };
}
function jsonBytes(value) {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}
function textBlock(text, options = {}) {
  return { type: "TextBlock", text, wrap: true, ...options };
}
export {
  TEAMS_MAX_BYTES,
  jsonBytes,
  teamsPayload,
  textBlock
};
