import type { TokenCredentialOptions } from '@azure/identity';
import type { TestIssuer } from './testIssuer';

/** MSAL's requests carry the test CA (the same as trusting a corporate CA in a real set-up). */
export function trustCa(issuer: TestIssuer): TokenCredentialOptions {
  return {
    additionalPolicies: [
      {
        position: 'perCall',
        policy: {
          name: 'trust-test-ca',
          sendRequest: (req, next) => {
            req.tlsSettings = { ca: issuer.caPem };
            return next(req);
          },
        },
      },
    ],
  };
}
