import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { composeMiddleware } from '../src/http/pipeline.js';

function appWith(steps: RequestHandler[]) {
  return express()
    .use(composeMiddleware(steps))
    .use((_req, res) => {
      res.status(404).send('fell through');
    })
    .use(((err, _req, res, _next) => {
      res.status(500).send(`error: ${(err as Error).message}`);
    }) as express.ErrorRequestHandler);
}

describe('composeMiddleware', () => {
  it('runs the steps in order, then hands over to what follows it', async () => {
    const seen: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        seen.push(name);
        next();
      };
    const res = await request(appWith([step('a'), step('b'), step('c')])).get('/');
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(res.text).toBe('fell through');
  });

  it('stops at a step that answers', async () => {
    const after: RequestHandler = () => {
      throw new Error('must not run');
    };
    const res = await request(appWith([(_req, res) => void res.send('answered'), after])).get('/');
    expect(res.text).toBe('answered');
  });

  it.each([
    {
      how: 'passed to next',
      step: ((_req, _res, next) => next(new Error('passed'))) as RequestHandler,
      message: 'passed',
    },
    {
      how: 'thrown',
      step: (() => {
        throw new Error('thrown');
      }) as RequestHandler,
      message: 'thrown',
    },
    {
      how: 'rejected',
      step: (async () => Promise.reject(new Error('rejected'))) as RequestHandler,
      message: 'rejected',
    },
  ])(
    'hands an error $how to the error handler, skipping the remaining steps',
    async ({ step, message }) => {
      let skipped = true;
      const res = await request(
        appWith([step, (_req, _res, next) => ((skipped = false), next())]),
      ).get('/');
      expect(res.status).toBe(500);
      expect(res.text).toBe(`error: ${message}`);
      expect(skipped).toBe(true);
    },
  );
});
