// The tests run against Express 4 through the `express4` alias; its API is typed as Express'.
declare module 'express4' {
  import express = require('express');
  export = express;
}
