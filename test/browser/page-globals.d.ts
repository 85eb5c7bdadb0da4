// The browser globals of the functions the tests pass to page.evaluate(): they run in Chromium,
// not in Node, and the DOM lib cannot be loaded next to Node's types (their fetch types clash).
declare const document: any;
declare const window: any;
declare const navigator: any;
declare const NodeFilter: { readonly SHOW_TEXT: number };
declare function getComputedStyle(element: unknown): any;
type HTMLAnchorElement = { href: string };
