import { createConnection, createServer } from 'node:net';

/**
 * Starts answering on a loopback `port` nothing listened on (a backend that comes back):
 * every connection is forwarded to `targetUrl`'s port. Resolves to a function that stops it.
 */
export async function forwardPort(port: number, targetUrl: string): Promise<() => Promise<void>> {
  const targetPort = Number(new URL(targetUrl).port);
  const server = createServer((socket) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
