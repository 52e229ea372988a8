// The mock behind the standard Fetch API: a Request in, a Response out, with no port (as
// hono's `app.request`). For tests, MSW and runtimes that speak Fetch; the Node listener does
// not go through here, so a server builds no Request or Response per request.
import {
  CheckedJson,
  malformedText,
  type CheckedAnswer,
  type CheckedStream,
  type Fault,
  type Reply,
} from '../vocabulary/answer.js';
import type { MockRequest } from '../vocabulary/request.js';

/**
 * A Fetch request as the core receives one. Fetch keeps Content-Length off a request's
 * headers (the network layer adds it as it sends): the body, already in memory, is read
 * first, and its length is the one a server would have been told.
 * @example await requestOf(new Request('http://mock.test/v1/categories')) // { method: 'GET', target: '/v1/categories', ... }
 */
export async function requestOf(request: Request): Promise<MockRequest> {
  const url = new URL(request.url);
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = {};
  const rawHeaders: string[] = [];
  // Fetch joins a repeated header into one value: the core sees it sent once.
  request.headers.forEach((value, name) => {
    headers[name] = value;
    rawHeaders.push(name, value);
  });
  if (body !== undefined && headers['content-length'] === undefined) {
    headers['content-length'] = String(body.length);
    rawHeaders.push('content-length', String(body.length));
  }
  return {
    method: request.method,
    target: url.pathname + url.search,
    headers,
    rawHeaders,
    ...(body === undefined ? {} : { body }),
  };
}

/**
 * The core's reply as a Fetch Response. A network fault is a network error (`Response.error()`,
 * after holding it for a `timeout`), as a fetch over a socket would fail; `malformed` sends
 * half the JSON.
 */
export function responseOf(reply: Reply, method: string): Response | Promise<Response> {
  if (reply.fault) return faultResponse(reply.fault);
  const { answer } = reply;
  const bodiless = method === 'HEAD' || answer.status === 204 || answer.status === 304;
  if (answer.stream && !bodiless)
    return new Response(readableOf(answer.stream), {
      status: answer.status,
      headers: answer.headers,
    });
  return new Response(bodiless ? null : bytesOf(answer), {
    status: answer.status,
    headers: answer.headers,
  });
}

function bytesOf({ body }: CheckedAnswer): Uint8Array | null {
  if (body === undefined) return null;
  return body instanceof CheckedJson ? body.bytes : body.joined();
}

/**
 * A streamed answer as a body the reader pulls: an event each time it asks for more, after
 * the interval, so that one that reads nothing holds the mock to one event. A cut is a
 * network error (`reset`, and `timeout` after its hold), or half an event and the end
 * (`malformed`).
 */
function readableOf(stream: CheckedStream): ReadableStream<Uint8Array> {
  let index = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (index > 0 && stream.intervalMs > 0) await wait(stream.intervalMs);
        if (index < stream.sent) {
          controller.enqueue(stream.event(index++));
          return;
        }
        const { cut } = stream;
        if (!cut) return controller.close();
        if (cut.kind === 'malformed') {
          const next = index < stream.count ? stream.event(index) : Buffer.from('data: {"');
          controller.enqueue(next.subarray(0, Math.max(1, Math.floor(next.length / 2))));
          return controller.close();
        }
        if (cut.kind === 'timeout') await wait(cut.holdMs);
        controller.error(new TypeError('network error'));
      },
      cancel() {
        clearTimeout(timer);
      },
    },
    // No event is made ahead of the reader's asking.
    { highWaterMark: 0 },
  );
}

async function faultResponse(fault: Fault): Promise<Response> {
  if (fault.kind === 'malformed')
    return new Response(malformedText(fault), {
      status: fault.status,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  if (fault.kind === 'timeout') await new Promise((resolve) => setTimeout(resolve, fault.holdMs));
  return Response.error();
}
