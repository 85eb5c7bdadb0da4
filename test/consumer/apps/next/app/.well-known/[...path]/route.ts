// The catch-all the docs recommend: the legacy alias, the viewer's page and every other document
// under .well-known that no route file of its own serves.
export { GET, HEAD, OPTIONS } from '../../../lib/card';
