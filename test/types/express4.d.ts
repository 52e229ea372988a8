// express 4, installed as `express4` to prove petstore-kit/express against both majors: the
// part of its API the tests use is typed as express 5's is.
declare module 'express4' {
  import express from 'express';
  export default express;
}
