// The tests run Express 4, Koa 2 and Fastify 4 through the `express4`, `koa2` and `fastify4`
// aliases; their APIs are typed as Express', Koa's and Fastify's.
declare module 'express4' {
  import express = require('express');
  export = express;
}
declare module 'koa2' {
  import Koa = require('koa');
  export = Koa;
}
declare module 'fastify4' {
  import fastify from 'fastify';
  export default fastify;
}
