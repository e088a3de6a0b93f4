import { createHmac } from 'node:crypto';
import { hmacSha1Signature, oauth1Authorization, parseOauth1Header, signatureBaseString, verifyOauth1 } from './oauth1';

describe('OAuth 1.0a signing', () => {
  it('builds the signature base string of RFC 5849 section 3.4.1.1 (query, body and oauth parameters)', () => {
    const base = signatureBaseString('POST', 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b', [
      ['oauth_consumer_key', '9djdj82h48djs9d2'],
      ['oauth_token', 'kkk9d7dh3k39sjv7'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '137131201'],
      ['oauth_nonce', '7d8f3e4a'],
      ['c2', ''],
      ['a3', '2 q'],
    ]);
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26' +
        'c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1' +
        '%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });

  it('signs with the consumer secret alone and verifies only the same method, URL and secret', () => {
    const url = 'https://restapi.mailplus.nl/integrationservice-1.1.0/campaign/list';
    const header = oauth1Authorization({ method: 'GET', url, consumerKey: 'key', consumerSecret: 's3cret!' });
    const parameters = parseOauth1Header(header)!;
    expect([...parameters.keys()].sort()).toEqual([
      'oauth_consumer_key',
      'oauth_nonce',
      'oauth_signature',
      'oauth_signature_method',
      'oauth_timestamp',
      'oauth_version',
    ]);
    expect(parameters.get('oauth_consumer_key')).toBe('key');
    expect(verifyOauth1('GET', url, header, 's3cret!')).toBe(true);
    expect(verifyOauth1('GET', url, header, 'other')).toBe(false);
    expect(verifyOauth1('POST', url, header, 's3cret!')).toBe(false);
    expect(verifyOauth1('GET', `${url}?page=2`, header, 's3cret!')).toBe(false);
    expect(header).not.toContain('s3cret');
  });

  it('keys the HMAC with the encoded secrets joined by &', () => {
    // HMAC-SHA1("base") keyed "a%26b&" computed independently of the helper.
    expect(hmacSha1Signature('base', 'a&b')).toBe(createHmac('sha1', 'a%26b&').update('base').digest('base64'));
  });
});
