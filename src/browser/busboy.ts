// busboy in a browser: it parses Node streams, which a page has not. A multipart body is
// refused with a 415 in the spec's error shape, saying where to test it instead.
import { errors } from '../vocabulary/error-catalogue.js';

export default function busboy(): never {
  throw errors.multipartNotInBrowser();
}
