// The baseline: a bare node:http server answering every GET with a fixed JSON body (BODY_FILE) and
// every DELETE with 204, the least work an HTTP server on this machine can do for these calls.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE, 'utf8');
const length = Buffer.byteLength(body);
const server = createServer((request, response) => {
  if (request.method === 'DELETE') {
    response.writeHead(204);
    response.end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/v1`));
