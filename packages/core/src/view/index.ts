/**
 * `@agent-card/core/view`: Agent Cards and AI Catalogs as self-contained HTML pages for people,
 * and the escaping they are built with. Every string of a card is hostile input here: it is
 * escaped for text and attributes, only `https:`/`http:` URLs become links, and control and
 * bidi characters are shown instead of obeyed. The pages load nothing external and run under
 * {@link VIEWER_CONTENT_SECURITY_POLICY}.
 *
 * @example
 * import { renderAgentCardPage, VIEWER_CONTENT_SECURITY_POLICY } from '@agent-card/core/view'
 * const page = renderAgentCardPage(card, { jsonHref: '/.well-known/agent-card.json' })
 * // serve `page` as text/html with Content-Security-Policy: VIEWER_CONTENT_SECURITY_POLICY
 * @packageDocumentation
 */
export { renderAgentCardPage, renderCardSection, renderRawJson, readSignatureHeader } from './card';
export type { AgentCardPageOptions, CardSectionOptions, ViewerSignature } from './card';
export { renderAiCatalogPage } from './catalog';
export {
  PROMPT_SAFETY_RULES,
  promptFindingsOf,
  renderPromptPieces,
  renderPromptSection,
  renderPromptText,
} from './prompt';
export type { PromptPiece, PromptRendering, PromptSectionOptions } from './prompt';
export type { AiCatalogPageOptions } from './catalog';
export {
  VIEWER_CONTENT_SECURITY_POLICY,
  VIEWER_META_CONTENT_SECURITY_POLICY,
  VIEWER_SCRIPT,
  VIEWER_SCRIPT_HASH,
  VIEWER_STYLE,
  VIEWER_STYLE_HASH,
  renderHtmlDocument,
} from './document';
export type { DocumentLink, HtmlDocumentOptions } from './document';
export { escapeHtml, html, isSafeHtml, raw, safeHref } from './escape';
export type { SafeHtml } from './escape';
export {
  describeAuthentication,
  describeCredential,
  describeSecurityScheme,
  descriptionText,
  renderAuthentication,
  renderUrl,
} from './schemes';
export type { AuthenticationDescription, DescriptionPart, SecuritySchemeDescription } from './schemes';
