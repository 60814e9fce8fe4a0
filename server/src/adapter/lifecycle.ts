// The LSP life cycle that vscode-languageserver leaves to the server: before `initialize` every
// request is answered with -32002 (ServerNotInitialized) and notifications other than `exit` are
// dropped; `initialize` is accepted once (a second one is refused with -32600); after `shutdown`
// requests are refused with -32600 (InvalidRequest). Implemented as a MessageReader in front of
// the connection, so no handler ever runs in a state the protocol forbids.
import { type DataCallback, type Disposable, Emitter, type Message, type MessageReader, type MessageWriter, type PartialMessageInfo, type RequestMessage, type ResponseMessage } from 'vscode-languageserver/node';

export const serverNotInitialized = -32002;
export const invalidRequest = -32600;
export const parseError = -32700;

type State = 'waiting' | 'running' | 'shut-down';

const isRequest = (message: Message): message is RequestMessage => 'method' in message && 'id' in message && (message as RequestMessage).id !== undefined;
const isNotification = (message: Message): boolean => 'method' in message && !('id' in message && (message as RequestMessage).id !== undefined);

export class LifecycleGate implements MessageReader {
  private state: State = 'waiting';
  private readonly partial = new Emitter<PartialMessageInfo>();

  constructor(private readonly inner: MessageReader, private readonly writer: MessageWriter) {}

  get onError() { return this.inner.onError; }
  get onClose() { return this.inner.onClose; }
  get onPartialMessage() { return this.inner.onPartialMessage ?? this.partial.event; }

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
    if (isRequest(message)) {
      if (method === 'initialize') {
        if (this.state !== 'waiting') return this.refuse(message, invalidRequest, 'initialize may be sent only once');
        this.state = 'running';
        return true;
      }
      if (this.state === 'waiting') return this.refuse(message, serverNotInitialized, `the server is not initialized yet: send initialize before ${method}`);
      if (this.state === 'shut-down') return this.refuse(message, invalidRequest, `the server is shut down: ${method} is refused (send exit)`);
      if (method === 'shutdown') this.state = 'shut-down';
      return true;
    }
    if (isNotification(message)) return method === 'exit' || this.state === 'running';
    return true; // responses to our own requests
  }

  private refuse(message: RequestMessage, code: number, text: string): false {
    const response: ResponseMessage = { jsonrpc: '2.0', id: message.id, error: { code, message: text } };
    void this.writer.write(response);
    return false;
  }
}
