// The tests run against Koa 2 through the `koa2` alias; @types/koa describes Koa 2.
declare module 'koa2' {
  import Koa = require('koa');
  export = Koa;
}
