/** Keys whose value may instead be read from a file named by a sibling `<key>File`. */
export const FILE_SECRET_KEYS = [
  'apiKey',
  'webhookUrl',
  'smtpUrl',
  'pass',
  'url',
  'signingSecret',
  'token',
  'password',
] as const;
