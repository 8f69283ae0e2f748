import { html } from "../html.js";
function renderLogin(csrf, next, wrong) {
  return html`${wrong ? html`<p class="notice bad">That is not the console token.</p>` : ""}
<p>This console is reachable beyond this machine, so it asks for <code>http.auth.token</code>.</p>
<form method="post" action="/login"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="next" value="${next}">
<fieldset><label>Token<input type="password" name="token" autocomplete="current-password" required autofocus></label><button>Sign in</button></fieldset></form>`;
}
export {
  renderLogin
};
