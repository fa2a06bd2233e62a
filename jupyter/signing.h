/* signing.h — HMAC signatures of Jupyter messages (OpenSSL's libcrypto).
 *
 * A message's signature is the hex HMAC of its header, parent header,
 * metadata and content frames, keyed by the connection file's `key` with the
 * digest named by `signature_scheme` ("hmac-sha256"). An empty key means
 * signing is off: messages carry an empty signature and any signature is
 * accepted, as the messaging spec says. */
#ifndef MF_KERNEL_SIGNING_H
#define MF_KERNEL_SIGNING_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/evp.h>

typedef struct mf_signer {
  unsigned char *key; /* owned */
  size_t keylen;
  const EVP_MD *md;   /* NULL when keylen == 0 */
  EVP_MAC *mac;       /* HMAC, fetched once; shared read-only by all threads */
} mf_signer;

/* Largest signature: two hex digits per digest byte, plus NUL. */
#define MF_SIG_MAX (2 * EVP_MAX_MD_SIZE + 1)

/* Sets up a signer; scheme is "hmac-<digest>". Returns false (with a
 * reason in err) for an unknown scheme. */
bool mf_signer_init(mf_signer *sg, const char *key, const char *scheme, char *err, size_t errlen);
void mf_signer_free(mf_signer *sg);

/* Signs the four parts; writes the lowercase hex signature ("" when signing
 * is off). Returns false when libcrypto fails. */
bool mf_sign(const mf_signer *sg, const void *const parts[4], const size_t lens[4],
             char out[MF_SIG_MAX]);

/* True when sig[0..siglen) is the signature of the parts. The comparison
 * takes the same time wherever the first difference is (CRYPTO_memcmp), so
 * a forger learns nothing from timing. */
bool mf_signature_ok(const mf_signer *sg, const void *sig, size_t siglen,
                     const void *const parts[4], const size_t lens[4]);

#endif
