// The LSP life cycle that vscode-languageserver leaves to the server: before `initialize` every
// request is answered with -32002 (ServerNotInitialized) and notifications other than `exit` are
// dropped; `initialize` is accepted once (a second one is refused with -32600); after `shutdown`
// requests are refused with -32600 (InvalidRequest). Implemented as a MessageReader in front of
// the connection, so no handler ever runs in a state the protocol forbids. Params of the wrong
// shape (paramsGuard.ts) never reach a handler either: such a request gets -32602, such a
// notification is dropped with a line in the client's log.
import {
  type DataCallback,
  type Disposable,
  Emitter,
  type Message,
  type MessageReader,
  type MessageWriter,
  type NotificationMessage,
  type PartialMessageInfo,
  type RequestMessage,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import { malformedParams } from './paramsGuard';

export const serverNotInitialized = -32002;
export const invalidRequest = -32600;
export const parseError = -32700;
export const invalidParams = -32602;

type State = 'waiting' | 'running' | 'shut-down';

const isRequest = (message: Message): message is RequestMessage =>
  'method' in message && 'id' in message && (message as RequestMessage).id !== undefined;
const isNotification = (message: Message): boolean =>
  'method' in message && !('id' in message && (message as RequestMessage).id !== undefined);

export class LifecycleGate implements MessageReader {
  private state: State = 'waiting';
  private readonly partial = new Emitter<PartialMessageInfo>();

  constructor(
    private readonly inner: MessageReader,
    private readonly writer: MessageWriter,
  ) {}

  /** `shutdown` was accepted: exiting now is the orderly end (exit code 0). */
  get shutdownReceived(): boolean {
    return this.state === 'shut-down';
  }

  get onError() {
    return this.inner.onError;
  }
  get onClose() {
    return this.inner.onClose;
  }
  get onPartialMessage() {
    return this.inner.onPartialMessage ?? this.partial.event;
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message) => {
      if (this.admit(message)) callback(message);
    });
  }

  dispose(): void {
    this.inner.dispose();
  }

  private admit(message: Message): boolean {
    const method = (message as RequestMessage).method;
    const malformed =
      typeof method === 'string' ? malformedParams(method, (message as RequestMessage).params) : undefined;
    if (isRequest(message)) {
      if (method === 'initialize') {
        if (this.state !== 'waiting') return this.refuse(message, invalidRequest, 'initialize may be sent only once');
        const params = message.params;
        if (typeof params !== 'object' || params === null || Array.isArray(params))
          return this.refuse(message, invalidParams, 'initialize: params is not an object');
        // The library reads capabilities.workspace itself: a client that sent none has none.
        const record = params as Record<string, unknown>;
        if (typeof record.capabilities !== 'object' || record.capabilities === null) record.capabilities = {};
        this.state = 'running';
        return true;
      }
      if (this.state === 'waiting')
        return this.refuse(
          message,
          serverNotInitialized,
          `the server is not initialized yet: send initialize before ${method}`,
        );
      if (this.state === 'shut-down')
        return this.refuse(message, invalidRequest, `the server is shut down: ${method} is refused (send exit)`);
      if (method === 'shutdown') this.state = 'shut-down';
      if (malformed) return this.refuse(message, invalidParams, `${method}: ${malformed}`);
      return true;
    }
    if (isNotification(message)) {
      if (method === 'exit') return true;
      if (this.state !== 'running') return false;
      if (malformed) {
        const log: NotificationMessage = {
          jsonrpc: '2.0',
          method: 'window/logMessage',
          params: { type: 4, message: `ignored ${method}: ${malformed}` },
        };
        void this.writer.write(log);
        return false;
      }
      return true;
    }
    return true; // responses to our own requests
  }

  private refuse(message: RequestMessage, code: number, text: string): false {
    const response: ResponseMessage = { jsonrpc: '2.0', id: message.id, error: { code, message: text } };
    void this.writer.write(response);
    return false;
  }
}
