export { GET, HEAD, OPTIONS } from '../../../../../lib/agents';
