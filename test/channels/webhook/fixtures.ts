/** A Standard Webhooks signing secret for tests that need any webhook channel: `whsec_` + base64 of 32 bytes. */
export const TEST_SIGNING_SECRET = `whsec_${Buffer.from('shortwatch-test-signing-key-0001').toString('base64')}`;
