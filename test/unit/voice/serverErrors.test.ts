import { describe, expect, it } from 'vitest';
import { serverErrorSentence } from '../../../src/main/voice/serverErrors';

const server = 'The transcription server at 127.0.0.1:8080';

describe('audio server errors in words', () => {
  it("reads OpenAI's, whisper.cpp's and FastAPI's shapes", () => {
    expect(serverErrorSentence(server, 400, JSON.stringify({ error: { message: 'Invalid file format.', type: 'invalid_request_error', param: 'file', code: null } }))).toBe(
      'The transcription server at 127.0.0.1:8080 answered 400: Invalid file format.',
    );
    expect(serverErrorSentence(server, 400, JSON.stringify({ error: "no 'file' field in the request" }))).toBe(
      "The transcription server at 127.0.0.1:8080 answered 400: no 'file' field in the request.",
    );
    expect(serverErrorSentence(server, 404, JSON.stringify({ detail: "Model 'whisper-1' is not installed locally." }))).toMatch(
      /^The transcription server at 127\.0\.0\.1:8080 answered 404: Model 'whisper-1' is not installed locally\. Check \[voice\] endpoint and model/,
    );
    expect(serverErrorSentence(server, 422, JSON.stringify({ detail: [{ loc: ['body', 'file'], msg: 'Field required' }, { msg: 'bad model' }] }))).toBe(
      'The transcription server at 127.0.0.1:8080 answered 422: Field required; bad model.',
    );
  });

  it('adds what to do for the usual statuses', () => {
    expect(serverErrorSentence(server, 401, JSON.stringify({ error: { message: 'Incorrect API key provided' } }))).toMatch(/Incorrect API key provided\. Check the key: \[voice\] api_key_env/);
    expect(serverErrorSentence(server, 413, '')).toMatch(/answered 413\. The recording is too long .*max_seconds/);
    expect(serverErrorSentence(server, 503, JSON.stringify({ error: 'loading model' }))).toMatch(/loading model\. The server is not ready/);
    expect(serverErrorSentence(server, 502, '<html>Bad gateway</html>')).toMatch(/answered 502: <html>Bad gateway<\/html>\. The server failed/);
  });

  it('quotes a text answer on one line and cuts a long one', () => {
    expect(serverErrorSentence(server, 400, 'bad\n  request\n')).toBe('The transcription server at 127.0.0.1:8080 answered 400: bad request.');
    const long = serverErrorSentence(server, 400, 'x'.repeat(5_000));
    expect(long.length).toBeLessThan(400);
    expect(long).toContain('…');
    expect(serverErrorSentence(server, 400, '{"unexpected": true}')).toBe('The transcription server at 127.0.0.1:8080 answered 400: {"unexpected": true}.');
  });
});
