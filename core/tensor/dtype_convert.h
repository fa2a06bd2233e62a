/* dtype_convert.h — elements converted between any two numeric or bool
 * dtypes, as TensorFlow's Cast kernel converts them on x86.
 *
 * The rules are C++'s static_cast as gcc compiles it there, which NumPy's
 * astype shares:
 *   - to bool: x != 0; from bool: 0 or 1;
 *   - integer to integer: the low bits (wrapping);
 *   - float to integer: truncation toward zero; a value out of range or
 *     NaN gives what the x86 conversion instruction gives (cvttss2si's
 *     "integer indefinite", the minimum int32 or int64), cut to the
 *     destination's low bits for the types narrower than 32 bits (uint32
 *     through the 64-bit instruction); uint64 converts in two ranges,
 *     below and above 2^63, each through the signed instruction. (NumPy's
 *     scalar loops agree; its SIMD loops for uint32 give other values out
 *     of range, so NumPy is no reference there.)
 *   - to float16/bfloat16: through float, rounded to nearest even (Eigen);
 *     from them: exactly, through float.
 * Strings, resources and variants do not convert. */
#ifndef MF_DTYPE_CONVERT_H
#define MF_DTYPE_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"

/* Numeric or bool: the dtypes mf_convert_elements takes. */
bool mf_dtype_is_convertible(mf_dtype dt);

/* dst[0..n) = src[0..n) converted from sdt to ddt (both convertible).
 * src and dst must not overlap unless the dtypes have the same size. */
void mf_convert_elements(const void *src, mf_dtype sdt, void *dst, mf_dtype ddt, int64_t n);

/* Element i of a convertible buffer as a double (exact for every dtype but
 * the 64-bit integers past 2^53), and an integer one as its value. */
double mf_element_f64(const void *data, mf_dtype dt, int64_t i);

#endif
