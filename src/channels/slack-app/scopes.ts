/** The bot scopes a slack-app channel needs to post. */
export const REQUIRED_SCOPES = ['chat:write'] as const;

/** The scopes direct messages add: find a user by e-mail, open a DM with them. */
export const DIRECT_SCOPES = ['users:read', 'users:read.email', 'im:write'] as const;

/** The required scopes the token lacks, from its `x-oauth-scopes` header (`chat:write,users:read`). */
export function missingScopes(
  header: string | undefined,
  required: readonly string[] = REQUIRED_SCOPES,
): string[] {
  const granted = new Set((header ?? '').split(',').map((scope) => scope.trim()));
  return required.filter((scope) => !granted.has(scope));
}
