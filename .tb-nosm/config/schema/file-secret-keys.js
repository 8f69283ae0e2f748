const FILE_SECRET_KEYS = [
  "apiKey",
  "webhookUrl",
  "smtpUrl",
  "pass",
  "url",
  "signingSecret",
  "token",
  "password"
];
export {
  FILE_SECRET_KEYS
};
