import { sha256 } from '@noble/hashes/sha2';
import { encodeBase64 } from '../sign/base64url';
import { html, raw, type SafeHtml } from './escape';

/**
 * The page's one stylesheet: system fonts only, a single column that fits a phone, light and dark
 * through `prefers-color-scheme`. No `url()`, no `@import`: the policy allows nothing external.
 */
export const VIEWER_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;--accent:#0550ae;--ok:#116329;--warn:#8a4600;--bad:#b3261e;--chip:#ddf4ff}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9ea7b3;--line:#30363d;--card:#161b22;--accent:#6cb6ff;--ok:#56d364;--warn:#e3b341;--bad:#ff7b72;--chip:#1f3a5f}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;overflow-wrap:anywhere}
main{max-width:960px;margin:0 auto;padding:16px}
header.page{border-bottom:1px solid var(--line);margin-bottom:16px}
h1{font-size:1.75rem;margin:.5rem 0}
h2{font-size:1.25rem;margin:1.75rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:0 0 .25rem}
p{margin:.25rem 0 .75rem}
a{color:var(--accent)}
a:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.lead{font-size:1.1rem;white-space:pre-line}
.muted{color:var(--muted)}
.desc{white-space:pre-line}
li>dl.facts:last-child{margin-bottom:0}
ul.items>li>h2:first-child{margin-top:0;border-bottom:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1rem}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
dl.facts dd>p,dl.facts dd>ul.plain{margin:0}
@media (max-width:600px){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}}
ul.items{list-style:none;padding:0;margin:0;display:grid;gap:12px}
ul.items>li{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px}
ul.plain{margin:.25rem 0 .5rem;padding-left:1.25rem}
.chips{display:flex;flex-wrap:wrap;gap:6px;list-style:none;padding:0;margin:.25rem 0}
.chips li{background:var(--chip);border-radius:999px;padding:0 10px;font-size:.9rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
pre{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px;overflow:auto;max-height:70vh;white-space:pre;overflow-wrap:normal}
.status-ok{color:var(--ok);font-weight:600}
.status-warn{color:var(--warn);font-weight:600}
.status-bad{color:var(--bad)}
.bar{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:.5rem 0}
.summary{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:0 0 16px}
.summary dl.facts{margin:0}
ul.badges{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:0 0 12px}
.badge{border:1px solid currentColor;border-radius:999px;padding:0 10px;font-size:.9rem;font-weight:600}
.badge-ok{color:var(--ok)}
.badge-bad{color:var(--bad)}
.badge-none{color:var(--muted)}
details.raw>summary,details.more>summary{cursor:pointer;color:var(--accent);margin:.25rem 0}
details.raw>pre{margin-top:.5rem}
details.more>summary>h3{display:inline;font-size:1.05rem}
ul.checks{list-style:none;padding:0;margin:.5rem 0 1rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,400px),1fr));gap:4px 24px}
ul.checks>li{display:flex}
.mark{flex:none;width:1.5em;font-weight:700}
.sev-error,.check-bad .mark{color:var(--bad)}
.sev-warning,.check-warn .mark{color:var(--warn)}
.sev-info,.check-none .mark{color:var(--muted)}
.check-ok .mark{color:var(--ok)}
.finding{border-left-width:4px!important}
.finding-error{border-left-color:var(--bad)!important}
.finding-warning{border-left-color:var(--warn)!important}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{text-align:left;vertical-align:top;padding:4px 12px 4px 0;border-bottom:1px solid var(--line);overflow-wrap:normal}
td a,td code{overflow-wrap:anywhere}
button{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:6px;padding:4px 12px;cursor:pointer}
footer{margin-top:2rem;padding-top:.5rem;border-top:1px solid var(--line);font-size:.9rem;color:var(--muted)}
`.trim();

/**
 * The page's one script: the copy button for the raw JSON. It only opens the JSON's `<details>`,
 * reads the text of an element and writes to the clipboard; without it the page loses nothing but the button (hidden until
 * the script shows it).
 */
export const VIEWER_SCRIPT = `
for(const b of document.querySelectorAll('button[data-copy]')){const t=document.getElementById(b.getAttribute('data-copy'));if(!t)continue;b.hidden=false;b.addEventListener('click',()=>{const d=t.closest('details');if(d)d.open=true;const done=(m)=>{b.textContent=m;setTimeout(()=>{b.textContent='Copy JSON'},2000)};const s=window.getSelection();const r=document.createRange();r.selectNodeContents(t);s.removeAllRanges();s.addRange(r);if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t.textContent).then(()=>done('Copied'),()=>done('Selected: press Ctrl+C'))}else{done('Selected: press Ctrl+C')}})}
`.trim();

function cspHash(text: string): string {
  return `'sha256-${encodeBase64(sha256(new TextEncoder().encode(text)))}'`;
}

/** The CSP source of {@link VIEWER_STYLE}. */
export const VIEWER_STYLE_HASH = cspHash(VIEWER_STYLE);
/** The CSP source of {@link VIEWER_SCRIPT}. */
export const VIEWER_SCRIPT_HASH = cspHash(VIEWER_SCRIPT);

/**
 * The `Content-Security-Policy` of every viewer page: nothing is allowed but the page's own
 * inline stylesheet and script, by hash. No images, fonts, frames, connections, forms, plugins or
 * `<base>`; the page cannot be framed; script sinks need Trusted Types, which none is allowed, so
 * even an injected `innerHTML` assignment would fail. `frame-ancestors` has no effect in a
 * `<meta>` policy (CSP 3 §6.1.1); the header form has it.
 *
 * @see https://www.w3.org/TR/CSP3/
 */
export const VIEWER_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${VIEWER_STYLE_HASH}`,
  `script-src ${VIEWER_SCRIPT_HASH}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** The policy for a `<meta http-equiv>` tag: the header's, minus what a meta policy ignores. */
export const VIEWER_META_CONTENT_SECURITY_POLICY = VIEWER_CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');

/** Options of {@link renderHtmlDocument}. */
export interface HtmlDocumentOptions {
  /** The `<title>`; escaped. */
  title: string;
  /** The content of `<main>`, built with `html`. */
  body: SafeHtml;
  /**
   * Puts the policy in a `<meta http-equiv="Content-Security-Policy">` tag, for a page saved to
   * a file (no server to send the header).
   * @default false
   */
  cspMeta?: boolean;
  /**
   * `<link>` elements in the head naming the discovery documents of the host (`rel="ai-catalog"`,
   * `rel="ard"`), the same the card's `Link` header names. Values are escaped.
   */
  links?: readonly DocumentLink[];
}

/** A `<link>` element of a page's head. */
export interface DocumentLink {
  readonly rel: string;
  readonly href: string;
  readonly type?: string;
}

/**
 * A complete HTML document around `body`: the shared stylesheet and copy script inline (matching
 * {@link VIEWER_CONTENT_SECURITY_POLICY}), `lang="en"`, a viewport for phones, and no external
 * resource of any kind.
 */
export function renderHtmlDocument(options: HtmlDocumentOptions): string {
  const meta = options.cspMeta
    ? html`<meta http-equiv="Content-Security-Policy" content="${VIEWER_META_CONTENT_SECURITY_POLICY}">`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${meta}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${options.title}</title>
${(options.links ?? []).map(
  (l) => html`<link rel="${l.rel}" href="${l.href}"${l.type === undefined ? '' : html` type="${l.type}"`}>
`,
)}<style>${raw(VIEWER_STYLE)}</style>
</head>
<body>
<main>
${options.body}
</main>
<script>${raw(VIEWER_SCRIPT)}</script>
</body>
</html>
`.value;
}
