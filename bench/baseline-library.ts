// The baseline of the item rows: what a bare express server does for the library spec's
// authors (list, create, read, replace, delete by UUID), with the same bearer check and
// nothing more: no spec, no validation of the id or the body beyond what it needs.
import { randomUUID } from 'node:crypto';
import express from 'express';

interface Author {
  id: string;
  email: string;
  displayName?: string;
  createdAt: string;
  updatedAt: string;
}

export interface LibraryBaselineOptions {
  keys: readonly string[];
  count: number;
}

export function createLibraryBaselineApp({ keys, count }: LibraryBaselineOptions): express.Express {
  const accepted = new Set(keys);
  const authors = new Map<string, Author>();
  const now = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    authors.set(id, {
      id,
      email: `author${i}@example.com`,
      displayName: `Author ${i}`,
      createdAt: now,
      updatedAt: now,
    });
  }
  const problem = (status: number, title: string) => ({ type: 'about:blank', title, status });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const bearer: express.RequestHandler = (req, res, next) => {
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() === 'bearer' && token !== undefined && accepted.has(token))
      return next();
    res.status(401).json(problem(401, 'Unauthorized'));
  };
  const fieldsOf = (body: unknown): Pick<Author, 'email' | 'displayName'> | undefined => {
    const { email, displayName } = (body ?? {}) as { email?: unknown; displayName?: unknown };
    if (typeof email !== 'string') return undefined;
    return { email, ...(typeof displayName === 'string' ? { displayName } : {}) };
  };

  app.get('/api/authors', bearer, (_req, res) => {
    res.json([...authors.values()]);
  });

  app.post('/api/authors', bearer, express.json(), (req, res) => {
    const fields = fieldsOf(req.body);
    if (!fields) return void res.status(400).json(problem(400, 'email must be a string'));
    const at = new Date().toISOString();
    const author = { id: randomUUID(), ...fields, createdAt: at, updatedAt: at };
    authors.set(author.id, author);
    res.status(201).location(`/api/authors/${author.id}`).json(author);
  });

  app.get('/api/authors/:authorId', bearer, (req, res) => {
    const author = authors.get(req.params.authorId as string);
    if (!author) return void res.status(404).json(problem(404, 'Not Found'));
    res.json(author);
  });

  app.put('/api/authors/:authorId', bearer, express.json(), (req, res) => {
    const current = authors.get(req.params.authorId as string);
    if (!current) return void res.status(404).json(problem(404, 'Not Found'));
    const fields = fieldsOf(req.body);
    if (!fields) return void res.status(400).json(problem(400, 'email must be a string'));
    const author = {
      id: current.id,
      ...fields,
      createdAt: current.createdAt,
      updatedAt: new Date().toISOString(),
    };
    authors.set(author.id, author);
    res.json(author);
  });

  app.delete('/api/authors/:authorId', bearer, (req, res) => {
    if (!authors.delete(req.params.authorId as string))
      return void res.status(404).json(problem(404, 'Not Found'));
    res.status(204).end();
  });

  return app;
}
