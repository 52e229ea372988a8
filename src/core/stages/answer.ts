// The answer check stage: the answer checked against the spec and made ready to send, or the
// stream the request asked for, its head checked now and its events as they go out.
import type { Answer, CheckedAnswer, Reply } from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { Operation } from '../../openapi/operations.js';
import type { Exchange, MockCoreOptions, MountedApi } from '../mock-core.js';

/** A promise only when the check is (a large list checked in slices). */
export function checkedReply(
  check: MockCoreOptions['checkAnswer'],
  api: MountedApi,
  request: MockRequest,
  operation: Operation,
  answer: Answer,
  exchange: Exchange,
): Reply | Promise<Reply> {
  const { streamed } = exchange;
  const stream =
    streamed &&
    api.streams?.answer(operation, streamed, answer, exchange.preferences ?? {}, exchange.cut);
  if (stream) {
    const head = check(operation, stream.head, api.headersOf(operation));
    const streamed = (checked: CheckedAnswer): Reply => ({
      answer: { ...checked, stream: stream.stream },
    });
    return head instanceof Promise ? head.then(streamed) : streamed(head);
  }
  // The operation's own headers under the answer's, merged once, by the check.
  const checked = check(operation, answer, api.headersOf(operation));
  const settled = (done: CheckedAnswer): Reply => ({
    answer: api.inXml ? api.inXml(request, operation, done) : done,
  });
  return checked instanceof Promise ? checked.then(settled) : settled(checked);
}
