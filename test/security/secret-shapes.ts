/**
 * The secret corpus: realistic fake secrets, generated fresh on every run (never real keys, and nothing a
 * repository scanner could flag in this file). Each shape is the text as it would be planted — an env
 * line, a URL, a header, a command-line flag — and the parts of it that must never be found raw.
 */
import { randomBytes } from 'node:crypto';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';

/** Random text over `alphabet`; with a mixed alphabet it always holds a letter and a digit (as real keys do). */
export function random(length: number, alphabet = ALNUM): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  if (alphabet.includes('q') && alphabet.includes('7') && length >= 4) out = 'q' + '7' + out.slice(2);
  return out;
}

export interface SecretShape {
  shape: string;
  text: string;
  /** Substrings that must not appear anywhere we store or print. */
  secrets: string[];
}

function pem(label: string): SecretShape {
  const lines = Array.from({ length: 8 }, () => random(64, B64));
  return { shape: `pem ${label}`, text: `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`, secrets: lines };
}

function value(shape: string, build: (secret: string) => string, secret = random(24)): SecretShape {
  return { shape, text: build(secret), secrets: [secret] };
}

function token(shape: string, prefix: string, body: string, suffix = ''): SecretShape {
  return { shape, text: `${prefix}${body}${suffix}`, secrets: [body.slice(-20)] };
}

export function secretCorpus(): SecretShape[] {
  const base64Json = Buffer.from(JSON.stringify({ email: 'svc@example.invalid', secretKey: random(40) })).toString('base64').replace(/=+$/, '');
  const basic = Buffer.from(`admin:${random(18)}`).toString('base64');
  const jwtSignature = random(43, ALNUM + '-_');
  const shapes: SecretShape[] = [
    token('openai legacy', 'sk-', `${random(20)}T3BlbkFJ${random(20)}`),
    token('openai project', 'sk-proj-', `${random(58, ALNUM + '_-')}T3BlbkFJ${random(58)}`),
    token('openai service account', 'sk-svcacct-', `${random(58)}T3BlbkFJ${random(58)}`),
    token('openai admin', 'sk-admin-', `${random(58)}T3BlbkFJ${random(58)}`),
    token('anthropic api', 'sk-ant-api03-', random(93, ALNUM + '_-'), 'AA'),
    token('anthropic admin', 'sk-ant-admin01-', random(93), 'AA'),
    token('github classic', 'ghp_', random(36)),
    token('github oauth', 'gho_', random(36)),
    token('github user-to-server', 'ghu_', random(36)),
    token('github server-to-server', 'ghs_', random(36)),
    token('github refresh', 'ghr_', random(36)),
    token('github fine-grained', 'github_pat_', `11${random(20)}_${random(59)}`),
    token('gitlab', 'glpat-', random(20)),
    token('slack bot', `xoxb-${random(12, DIGITS)}-${random(13, DIGITS)}-`, random(24)),
    token('slack user', `xoxp-${random(12, DIGITS)}-${random(13, DIGITS)}-`, random(32, HEX)),
    token('slack app', `xapp-1-A${random(10, UPPER + DIGITS)}-${random(13, DIGITS)}-`, random(64, HEX)),
    token('slack webhook', `https://hooks.slack.com/services/T${random(8, UPPER + DIGITS)}/B${random(8, UPPER + DIGITS)}/`, random(24)),
    token('aws access key', 'AKIA', random(16, UPPER + DIGITS)),
    token('aws temporary key', 'ASIA', random(16, UPPER + DIGITS)),
    value('aws secret key (env)', (s) => `AWS_SECRET_ACCESS_KEY=${s}`, random(40, B64)),
    value('aws secret key (json)', (s) => `{"aws_secret_access_key": "${s}"}`, random(40, B64)),
    token('google api key', 'AIza', random(35, ALNUM + '_-')),
    token('google oauth', 'ya29.a0', random(60, ALNUM + '_-')),
    token('stripe live secret', 'sk_' + 'live_', random(24)),
    token('stripe restricted', 'rk_' + 'live_', random(24)),
    token('stripe test secret', 'sk_' + 'test_', random(24)),
    token('npm', 'npm_', random(36)),
    { shape: 'sendgrid', text: `SG.${random(22)}.${random(43)}`, secrets: [] },
    token('shopify', 'shpat_', random(32, HEX)),
    token('linear', 'lin_api_', random(40)),
    token('1password service account', 'ops_', `${base64Json}fQ`),
    token('hugging face', 'hf_', random(34, LOWER + UPPER)),
    token('digitalocean', 'dop_v1_', random(64, HEX)),
    token('twilio api key', 'SK', random(32, HEX)),
    token('telegram bot', `${random(9, DIGITS).replace(/^0/, '1')}:AA`, random(33, ALNUM + '_-')),
    { shape: 'jwt', text: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: random(12), iat: 1700000000 })).toString('base64url')}.${jwtSignature}`, secrets: [jwtSignature] },
    pem('RSA PRIVATE KEY'),
    pem('OPENSSH PRIVATE KEY'),
    pem('EC PRIVATE KEY'),
    pem('PRIVATE KEY'),
    pem('PGP PRIVATE KEY BLOCK'),
    value('database url password', (s) => `postgres://app:${s}@db.internal.example:5432/prod`),
    value('https basic auth', (s) => `https://deploy:${s}@git.example.com/org/repo.git`),
    value('url query api_key', (s) => `https://api.example.com/v1/items?q=cats&api_key=${s}&page=2`),
    value('url query access_token', (s) => `https://graph.example.com/me?access_token=${s}`),
    value('url query password', (s) => `https://old.example.com/login?user=ada&password=${s}`),
    value('env password', (s) => `DB_PASSWORD=${s}`),
    value('env api key (opaque)', (s) => `OPENAI_API_KEY=${s}`),
    value('env glued name', (s) => `PGPASSWORD=${s} psql -h db`),
    value('cli --password=', (s) => `mysql -u root --password=${s} prod`),
    value('cli --password value', (s) => `pg_dump --password ${s} prod`),
    value('cli --token value', (s) => `deploy --verbose --token ${s} --yes`),
    value('header authorization basic', () => `Authorization: Basic ${basic}`, basic),
    value('header authorization bearer', (s) => `Authorization: Bearer ${s}`, random(40, ALNUM + '._-')),
    value('header x-api-key', (s) => `X-Api-Key: ${s}`),
    value('header cookie', (s) => `Cookie: theme=dark; session_id=${s}`),
    value('json password', (s) => `{"user": "ada", "password": "${s}"}`),
    value('yaml client_secret', (s) => `client_secret: ${s}`),
    value('curl -u', (s) => `curl -u admin:${s} https://api.example.com/`),
  ];
  return shapes.map((shape) => (shape.secrets.length > 0 ? shape : { ...shape, secrets: [shape.text.slice(-24)] }));
}
