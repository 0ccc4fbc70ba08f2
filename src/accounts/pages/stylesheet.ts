// The one stylesheet of the web pages, served from /assets (the CSP allows no inline style).
export const stylesheet = `
:root {
  --ink: #1d2a22; --muted: #5b6b60; --line: #d9e0d6; --paper: #f5f7f2; --card: #fff;
  --brand: #2f6b3f; --brand-dark: #1f4d2c; --danger: #b42318; --danger-bg: #fdf0ee;
  --ok-bg: #edf6ee; --warn-bg: #fff7e0; --warn-line: #e7c35a; --focus: #f3b931;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--paper); line-height: 1.5;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; }
a { color: var(--brand); }
a:hover { color: var(--brand-dark); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
h1 { font-size: 1.75rem; line-height: 1.2; margin: 0 0 0.75rem; }
h2 { font-size: 1.2rem; margin: 0 0 0.75rem; }
p { margin: 0 0 0.75rem; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.92em; }

.site-header { background: var(--brand-dark); color: #fff; }
.site-header .bar { max-width: 60rem; margin: 0 auto; padding: 0.75rem 1.25rem; display: flex; align-items: center; gap: 1.5rem; }
.brand { color: #fff; font-weight: 700; font-size: 1.2rem; text-decoration: none; display: flex; align-items: center; gap: 0.5rem; }
.brand img { width: 1.5rem; height: 1.5rem; }
.site-header nav { margin-left: auto; display: flex; gap: 1.25rem; }
.site-header nav a { color: #e4efe2; text-decoration: none; }
.site-header nav a:hover, .site-header nav a[aria-current="page"] { color: #fff; text-decoration: underline; }

main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
main.narrow { max-width: 28rem; padding-top: 3rem; }
.lead { color: var(--muted); margin-bottom: 1.5rem; }

.breadcrumb ol { list-style: none; display: flex; flex-wrap: wrap; gap: 0.4rem; padding: 0; margin: 0 0 1rem; font-size: 0.92rem; color: var(--muted); }
.breadcrumb li + li::before { content: "→"; margin-right: 0.4rem; color: var(--muted); }

.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1.25rem 1.5rem; margin-bottom: 1.25rem; }
.card > :last-child { margin-bottom: 0; }
.links { list-style: none; padding: 0; margin: 0; }
.links li { border-top: 1px solid var(--line); }
.links li:first-child { border-top: 0; }
.links a { display: block; padding: 0.6rem 0; font-weight: 600; text-decoration: none; }
.links .title { text-decoration: underline; }
.links .description { display: block; color: var(--muted); font-weight: 400; font-size: 0.92rem; }

.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1.5rem; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }

.field { margin-bottom: 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.hint { display: block; color: var(--muted); font-size: 0.9rem; margin-bottom: 0.3rem; }
.field-error { display: block; color: var(--danger); font-weight: 600; font-size: 0.92rem; margin-bottom: 0.3rem; }
input[type="text"], input[type="email"], input[type="password"], input[type="date"], select {
  font: inherit; width: 100%; max-width: 24rem; padding: 0.5rem 0.65rem; border: 1px solid #9aa79e; border-radius: 6px; background: #fff; color: var(--ink);
}
[aria-invalid="true"] { border-color: var(--danger); border-width: 2px; }
.form-row { display: flex; flex-wrap: wrap; gap: 0 1.25rem; align-items: flex-start; }
.form-row .field { flex: 1 1 14rem; }
.expiry-date { display: none; }
form:has(select[name="expiry"] option[value="date"]:checked) .expiry-date { display: block; }
.choices { border: 0; padding: 0; margin: 0 0 1rem; }
.choices legend { font-weight: 600; margin-bottom: 0.25rem; padding: 0; }
.choices label { display: block; margin: 0.2rem 0; }
.farm-choices, .key-farms { list-style: none; margin: 0.25rem 0 0; padding: 0; }
.farm-choices { padding-left: 1.5rem; max-height: 16rem; overflow-y: auto; display: none; }
form:has(input[name="reach"][value="some"]:checked) .farm-choices { display: block; }
.farm-choices code { color: var(--muted); font-size: 0.85rem; }

.button { font: inherit; font-weight: 600; display: inline-block; padding: 0.5rem 1rem; border-radius: 6px; border: 1px solid var(--brand); background: #fff; color: var(--brand); cursor: pointer; text-decoration: none; }
.button:hover { background: var(--ok-bg); color: var(--brand-dark); }
.button.primary { background: var(--brand); color: #fff; }
.button.primary:hover { background: var(--brand-dark); }
.button.danger { border-color: var(--danger); color: var(--danger); }
.button.danger:hover { background: var(--danger-bg); }
.button.danger.solid { background: var(--danger); color: #fff; }
.button.small { padding: 0.2rem 0.6rem; font-size: 0.9rem; }
.actions { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }

.error-summary { border: 2px solid var(--danger); background: var(--danger-bg); border-radius: 8px; padding: 0.75rem 1rem; margin-bottom: 1.25rem; }
.error-summary h2 { font-size: 1rem; margin: 0 0 0.25rem; color: var(--danger); }
.error-summary ul { margin: 0; padding-left: 1.2rem; }
.error-summary a { color: var(--danger); }
.notice { border-left: 4px solid var(--brand); background: var(--ok-bg); padding: 0.75rem 1rem; border-radius: 6px; margin-bottom: 1.25rem; }

.new-key { border: 2px solid var(--warn-line); background: var(--warn-bg); }
.secret-row { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.75rem; }
.secret { display: block; flex: 1 1 20rem; padding: 0.6rem 0.75rem; background: #fff; border: 1px solid var(--line); border-radius: 6px; user-select: all; overflow-wrap: anywhere; font-size: 1rem; }
.warning { font-weight: 600; }

.table-wrap { overflow-x: auto; position: relative; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th, td { text-align: left; padding: 0.55rem 0.75rem 0.55rem 0; border-bottom: 1px solid var(--line); vertical-align: middle; white-space: nowrap; }
th { color: var(--muted); font-weight: 600; font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.03em; }
td.name { white-space: normal; overflow-wrap: anywhere; }
td:last-child, th:last-child { text-align: right; padding-right: 0; }
.never { color: var(--muted); }
.empty { color: var(--muted); }
.aside { color: var(--muted); font-size: 0.92rem; }
form.inline { display: inline-flex; gap: 0.4rem; align-items: center; margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
