export const runtime = 'edge';
export { GET, HEAD, OPTIONS } from '../../../../lib/card';
