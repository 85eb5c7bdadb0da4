// The tests run against Fastify 4 through the `fastify4` alias; its API is typed as Fastify's.
declare module 'fastify4' {
  import fastify from 'fastify';
  export default fastify;
}
