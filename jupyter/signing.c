/* signing.c — see signing.h. */
#include "signing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

bool mf_signer_init(mf_signer *sg, const char *key, const char *scheme, char *err, size_t errlen) {
  memset(sg, 0, sizeof *sg);
  size_t n = key ? strlen(key) : 0;
  if (n == 0) return true; /* signing off */
  if (!scheme || !*scheme) scheme = "hmac-sha256";
  if (strncmp(scheme, "hmac-", 5) != 0 || !(sg->md = EVP_get_digestbyname(scheme + 5))) {
    snprintf(err, errlen, "unsupported signature_scheme '%s'", scheme);
    return false;
  }
  sg->mac = EVP_MAC_fetch(NULL, OSSL_MAC_NAME_HMAC, NULL);
  sg->key = malloc(n);
  if (!sg->key || !sg->mac) {
    snprintf(err, errlen, sg->mac ? "out of memory" : "libcrypto has no HMAC");
    mf_signer_free(sg);
    return false;
  }
  memcpy(sg->key, key, n);
  sg->keylen = n;
  return true;
}

void mf_signer_free(mf_signer *sg) {
  if (sg->key) OPENSSL_cleanse(sg->key, sg->keylen);
  free(sg->key);
  EVP_MAC_free(sg->mac);
  memset(sg, 0, sizeof *sg);
}

/* The raw digest of the four parts; returns its length, 0 on failure. */
static unsigned digest(const mf_signer *sg, const void *const parts[4], const size_t lens[4],
                       unsigned char out[EVP_MAX_MD_SIZE]) {
  unsigned outlen = 0;
  /* EVP_MAC is OpenSSL 3's streaming HMAC: the parts are hashed in place,
   * never concatenated into a copy of a possibly large content frame. */
  EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(sg->mac);
  if (ctx) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 (char *)EVP_MD_get0_name(sg->md), 0);
    params[1] = OSSL_PARAM_construct_end();
    size_t len = 0;
    bool ok = EVP_MAC_init(ctx, sg->key, sg->keylen, params);
    for (int i = 0; ok && i < 4; i++)
      ok = EVP_MAC_update(ctx, parts[i], lens[i]);
    if (ok && EVP_MAC_final(ctx, out, &len, EVP_MAX_MD_SIZE)) outlen = (unsigned)len;
  }
  EVP_MAC_CTX_free(ctx);
  return outlen;
}

bool mf_sign(const mf_signer *sg, const void *const parts[4], const size_t lens[4],
             char out[MF_SIG_MAX]) {
  out[0] = '\0';
  if (sg->keylen == 0) return true;
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned n = digest(sg, parts, lens, d);
  if (n == 0) return false;
  static const char hex[] = "0123456789abcdef";
  for (unsigned i = 0; i < n; i++) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[2 * n] = '\0';
  return true;
}

bool mf_signature_ok(const mf_signer *sg, const void *sig, size_t siglen,
                     const void *const parts[4], const size_t lens[4]) {
  if (sg->keylen == 0) return true;
  char want[MF_SIG_MAX];
  if (!mf_sign(sg, parts, lens, want)) return false;
  size_t n = strlen(want);
  /* The length of a valid signature is public (it depends only on the
   * digest), so checking it first leaks nothing. */
  if (siglen != n) return false;
  return CRYPTO_memcmp(want, sig, n) == 0;
}
