import { encodeBase64url } from '../sign/base64url';

/** Strings a hostile card author writes, each trying to run `globalThis.pwned = n` or open a dialog. */
export const HOSTILE_STRINGS: readonly string[] = [
  '<script>globalThis.pwned=1;alert(1)</script>',
  '"><img src=x onerror="globalThis.pwned=2;alert(2)">',
  "'><svg onload=globalThis.pwned=3;alert(3)>",
  'javascript:globalThis.pwned=4;alert(4)',
  ' JaVaScRiPt:globalThis.pwned=5',
  'data:text/html,<script>alert(6)</script>',
  '</pre></main><script>globalThis.pwned=7</script><!--',
  '\u202Eevil\u0000\u001b[31m\u2066x\u0085',
  // All of them at once, starting like a URL so URL fields are tried as links.
  'javascript:alert(8)//"><img src=x onerror=alert(9)><script>globalThis.pwned=10</script>\u202E\u0000',
];

/** A card whose every string (and every key) is a payload. */
export function hostileCard(payload: string): Record<string, unknown> {
  return {
    name: payload,
    description: payload,
    version: payload,
    documentationUrl: payload,
    iconUrl: payload,
    provider: { organization: payload, url: payload },
    supportedInterfaces: [{ url: payload, protocolBinding: payload, protocolVersion: payload, tenant: payload }],
    capabilities: { extensions: [{ uri: payload, description: payload, required: true }] },
    securitySchemes: {
      [payload]: { apiKeySecurityScheme: { location: 'header', name: payload, description: payload } },
      oauth: {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: payload, scopes: { [payload]: payload } } },
          oauth2MetadataUrl: payload,
        },
      },
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: payload } },
    },
    securityRequirements: [{ schemes: { [payload]: { list: [payload] } } }],
    defaultInputModes: [payload],
    defaultOutputModes: [payload],
    skills: [
      {
        id: payload,
        name: payload,
        description: payload,
        tags: [payload],
        examples: [payload],
        inputModes: [payload],
        outputModes: [payload],
      },
    ],
    signatures: [
      { protected: encodeBase64url(JSON.stringify({ alg: payload, kid: payload, jku: payload })), signature: 'AA' },
    ],
  };
}

/** A catalog whose every string is `payload`, listing a card whose every string is too. */
export function hostileCatalog(payload: string): Record<string, unknown> {
  return {
    specVersion: payload,
    host: { displayName: payload, identifier: payload, documentationUrl: payload, logoUrl: payload },
    entries: [
      {
        identifier: payload,
        displayName: payload,
        mediaType: payload,
        url: payload,
        description: payload,
        tags: [payload],
        version: payload,
        publisher: { identifier: payload, displayName: payload },
      },
    ],
  };
}
