// The practical limit of this stack: a bare express server doing what a plain
// implementation of the interface would, and nothing more (no spec, no validation,
// no logging). Its ETag is off, as the mock's is, so lists cost the same to send.
import express from 'express';
import type { Category } from '../test/types.js';

export interface BaselineOptions {
  keys: readonly string[];
  categories: readonly Category[];
}

export function createBaselineApp({ keys, categories }: BaselineOptions): express.Express {
  const accepted = new Set(keys);
  const store: Category[] = [...categories];
  let lastId = store.reduce((max, category) => Math.max(max, category.id), 0);
  const unauthorized = { code: 'unauthorized', message: 'Missing or invalid API key', status: 401 };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const bearer: express.RequestHandler = (req, res, next) => {
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() === 'bearer' && token !== undefined && accepted.has(token))
      return next();
    res.status(401).json(unauthorized);
  };

  app.get('/v1/categories', bearer, (_req, res) => {
    res.json(store);
  });

  app.post('/v1/categories', bearer, express.json(), (req, res) => {
    const { name, description } = (req.body ?? {}) as { name?: unknown; description?: unknown };
    if (typeof name !== 'string') {
      res.status(400).json({ code: 'bad_request', message: 'name must be a string', status: 400 });
      return;
    }
    const category: Category = {
      id: ++lastId,
      name,
      ...(typeof description === 'string' ? { description } : {}),
    };
    store.push(category);
    res.status(201).json(category);
  });

  return app;
}
