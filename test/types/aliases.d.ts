// The tests run Express 4 and Koa 2 through the `express4` and `koa2` aliases; their APIs are
// typed as Express' and Koa's.
declare module 'express4' {
  import express = require('express');
  export = express;
}
declare module 'koa2' {
  import Koa = require('koa');
  export = Koa;
}
