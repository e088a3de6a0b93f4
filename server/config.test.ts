import path from 'node:path';
import { ConfigError, loadConfig, localPublicUrl, normalizeHost } from './config';

describe('configuration', () => {
  it('has working defaults for a newcomer (npm start supplies PUBLIC_URL)', () => {
    const config = loadConfig({ PUBLIC_URL: localPublicUrl({}) });
    expect(config).toMatchObject({ HOST: '127.0.0.1', PORT: 8080, DATA_DIR: './var' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve('var'));
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
  });

  it('treats an empty DATABASE_URL as unset (embedded database)', () => {
    expect(loadConfig({ DATABASE_URL: '', NODE_ENV: 'test' }).DATABASE_URL).toBeUndefined();
  });

  it('means production when NODE_ENV is unset', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://openrate.example.com' }).NODE_ENV).toBe('production');
  });

  it('refuses to start in production without PUBLIC_URL, naming it', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({})).toThrow(/PUBLIC_URL: required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: '' })).toThrow(/PUBLIC_URL/);
  });

  it.each([
    'openrate.example.com',
    'ftp://openrate.example.com',
    'https://openrate.example.com/app',
    'https://a:b@x.io',
  ])('refuses PUBLIC_URL %s', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL must be an http:\/\/ or https:\/\/ address/);
  });

  it('defaults PUBLIC_URL to its own address for development and tests', () => {
    expect(loadConfig({ NODE_ENV: 'development', PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ NODE_ENV: 'test', HOST: '0.0.0.0' }).publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('mails links to the configured origin, without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Openrate.Example.com/' }).publicUrl).toBe('https://openrate.example.com');
  });

  it('allows only the public host, ALLOWED_HOSTS, and the loopback names of a local address', () => {
    expect(
      loadConfig({ PUBLIC_URL: 'https://openrate.example.com', ALLOWED_HOSTS: 'Internal.Example:8443, lb.example' })
        .allowedHosts,
    ).toEqual(['openrate.example.com', 'internal.example:8443', 'lb.example']);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).allowedHosts.sort()).toEqual(
      ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080'].sort(),
    );
  });

  it('refuses an ALLOWED_HOSTS entry that is not a host', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://x.example', ALLOWED_HOSTS: 'ok.example,https://bad/' })).toThrow(
      /ALLOWED_HOSTS: "https:\/\/bad\/" is not a host\[:port\]/,
    );
  });

  it('compares hosts without case or default ports', () => {
    expect(normalizeHost('Openrate.Example.com:443')).toBe('openrate.example.com');
    expect(normalizeHost('localhost:80')).toBe('localhost');
    expect(normalizeHost('localhost:8080')).toBe('localhost:8080');
    expect(normalizeHost('evil.example/path')).toBeNull();
    expect(normalizeHost('user@evil.example')).toBeNull();
  });
});
