export { GET, HEAD, OPTIONS } from '../../../../lib/card';
