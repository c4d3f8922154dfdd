// A Transport of the official TypeScript SDK (`@modelcontextprotocol/sdk`, which has none for MessagePort) over a
// MessagePort, used on both sides of the bench's TS SDK contender. Two wires:
//   "clone"  each JSON-RPC message object is posted as is (structured clone)
//   "json"   JSON.stringify(message) is posted, and JSON.parse'd on receipt
export class PortTransport {
  /** @param {MessagePort} port  @param {"clone" | "json"} wire */
  constructor(port, wire = "clone") {
    this.port = port;
    this.json = wire === "json";
    this.onmessage = undefined;
    this.onerror = undefined;
    this.onclose = undefined;
  }

  async start() {
    this.port.onmessage = (event) => {
      let message;
      try {
        message = this.json ? JSON.parse(event.data) : event.data;
      } catch (error) {
        this.onerror?.(error);
        return;
      }
      this.onmessage?.(message);
    };
    this.port.onmessageerror = () => this.onerror?.(new Error("a message could not be deserialized"));
  }

  async send(message) {
    this.port.postMessage(this.json ? JSON.stringify(message) : message);
  }

  async close() {
    this.port.onmessage = null;
    this.port.close();
    this.onclose?.();
  }
}
