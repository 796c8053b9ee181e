/** Server-rendered login and logout pages for the browsable API: no scripts, every value escaped. */

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!,
  );
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | netledger</title>
<style>
body{font-family:system-ui,sans-serif;background:#f5f6f8;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border:1px solid #dde;border-radius:8px;padding:2rem;width:20rem}
h1{font-size:1.3rem;margin:0 0 1rem}
label{display:block;margin:.75rem 0 .25rem}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.45rem}
button{margin-top:1.2rem;width:100%;padding:.55rem;background:#1f5fa8;color:#fff;border:0;border-radius:4px;cursor:pointer}
.error{color:#a11;background:#fdecec;border-radius:4px;padding:.5rem;margin-bottom:.5rem}
p.note{color:#555;font-size:.9rem}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageOptions {
  csrfField: string;
  csrfToken: string;
  next: string;
  username?: string;
  errors?: string[];
  loggedInAs?: string | null;
}

export function loginPage(options: LoginPageOptions): string {
  const errors = (options.errors ?? []).map((e) => `<p class="error">${escapeHtml(e)}</p>`).join('\n');
  const note = options.loggedInAs
    ? `<p class="note">You are logged in as <strong>${escapeHtml(options.loggedInAs)}</strong>.</p>`
    : '';
  return page(
    'Log in',
    `<h1>Log in to netledger</h1>
${note}
${errors}
<form method="post" action="/login/">
<input type="hidden" name="${escapeHtml(options.csrfField)}" value="${escapeHtml(options.csrfToken)}">
<input type="hidden" name="next" value="${escapeHtml(options.next)}">
<label for="username">Username</label>
<input type="text" id="username" name="username" value="${escapeHtml(options.username ?? '')}" autocomplete="username" autofocus required maxlength="150">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
<p class="note">API clients authenticate with <code>Authorization: Token &lt;key&gt;</code>.</p>`,
  );
}

export function logoutPage(options: { csrfField: string; csrfToken: string; username: string; next: string }): string {
  return page(
    'Log out',
    `<h1>Log out</h1>
<p class="note">Logged in as <strong>${escapeHtml(options.username)}</strong>.</p>
<form method="post" action="/logout/">
<input type="hidden" name="${escapeHtml(options.csrfField)}" value="${escapeHtml(options.csrfToken)}">
<input type="hidden" name="next" value="${escapeHtml(options.next)}">
<button type="submit">Log out</button>
</form>`,
  );
}
