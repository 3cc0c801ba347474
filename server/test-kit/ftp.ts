/** An FTP login over a raw control connection, for tests that must choose the client's address. */
import { connect } from 'node:net';

/** The server's reply (230 or 530 line) to USER and PASS sent from `localAddress`. */
export async function ftpLogin(
  port: number,
  localAddress: string,
  user: string,
  password: string,
): Promise<string> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  const until = async (pattern: RegExp) => {
    for (let i = 0; i < 300 && !pattern.test(text); i++) await new Promise((r) => setTimeout(r, 10));
  };
  await until(/^220 /m);
  socket.write(`USER ${user}\r\n`);
  await until(/^331 /m);
  socket.write(`PASS ${password}\r\n`);
  await until(/^(230|530) /m);
  socket.destroy();
  return text.split('\r\n').find((line) => /^(230|530) /.test(line)) ?? text;
}
