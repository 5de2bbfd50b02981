// Preloaded into server-everything (node --import), which listens on every interface and has no
// option to change that: binds its port on 127.0.0.1 only, so test servers are never reachable
// from outside this machine.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [port, ...rest] = args;
  if (typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) {
    const callback = rest.find((arg) => typeof arg === "function");
    return listen.call(this, { port: Number(port), host: "127.0.0.1" }, callback);
  }
  return listen.apply(this, args);
};
