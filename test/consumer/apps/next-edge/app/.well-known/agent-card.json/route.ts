// The card from Next's edge runtime: core's serving path imports no Node built-in.
export const runtime = 'edge';
export { GET, HEAD, OPTIONS } from '../../../lib/card';
