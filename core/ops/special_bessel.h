/* special_bessel.h — the Bessel functions of TF's tf.math.special (and
 * tf.math's bessel_i0/i0e/i1/i1e): the modified ones of the first and
 * second kind, I and K, by Cephes's Chebyshev expansions (i0.c, i1.c,
 * k0.c, k1.c), which is what Eigen's bessel_*_impl and so TF's kernels
 * compute. The double tables are summed in long double, for both float32
 * and float64, so that the one rounding to the result's type dominates.
 * J and Y (order 0 and 1) come from the C library's long double j0l, y0l,
 * ...: Cephes's rational approximations past x = 5 are accurate in
 * absolute, not relative, terms, and the differential test bounds ulps.
 * Included by ops_elementwise.c only, after <tgmath.h>. */
#ifndef MF_SPECIAL_BESSEL_H
#define MF_SPECIAL_BESSEL_H

/* Chebyshev coefficients (Cephes, as Eigen's generic_*<T, double>). */
static const long double i0e_a[30] = {
    -4.41534164647933937950E-18L, 3.33079451882223809783E-17L, -2.43127984654795469359E-16L,
    1.71539128555513303061E-15L, -1.16853328779934516808E-14L, 7.67618549860493561688E-14L,
    -4.85644678311192946090E-13L, 2.95505266312963983461E-12L, -1.72682629144155570723E-11L,
    9.67580903537323691224E-11L, -5.18979560163526290666E-10L, 2.65982372468238665035E-9L,
    -1.30002500998624804212E-8L, 6.04699502254191894932E-8L, -2.67079385394061173391E-7L,
    1.11738753912010371815E-6L, -4.41673835845875056359E-6L, 1.64484480707288970893E-5L,
    -5.75419501008210370398E-5L, 1.88502885095841655729E-4L, -5.76375574538582365885E-4L,
    1.63947561694133579842E-3L, -4.32430999505057594430E-3L, 1.05464603945949983183E-2L,
    -2.37374148058994688156E-2L, 4.93052842396707084878E-2L, -9.49010970480476444210E-2L,
    1.71620901522208775349E-1L, -3.04682672343198398683E-1L, 6.76795274409476084995E-1L,
};
static const long double i0e_b[25] = {
    -7.23318048787475395456E-18L, -4.83050448594418207126E-18L, 4.46562142029675999901E-17L,
    3.46122286769746109310E-17L, -2.82762398051658348494E-16L, -3.42548561967721913462E-16L,
    1.77256013305652638360E-15L, 3.81168066935262242075E-15L, -9.55484669882830764870E-15L,
    -4.15056934728722208663E-14L, 1.54008621752140982691E-14L, 3.85277838274214270114E-13L,
    7.18012445138366623367E-13L, -1.79417853150680611778E-12L, -1.32158118404477131188E-11L,
    -3.14991652796324136454E-11L, 1.18891471078464383424E-11L, 4.94060238822496958910E-10L,
    3.39623202570838634515E-9L, 2.26666899049817806459E-8L, 2.04891858946906374183E-7L,
    2.89137052083475648297E-6L, 6.88975834691682398426E-5L, 3.36911647825569408990E-3L,
    8.04490411014108831608E-1L,
};
static const long double i1e_a[29] = {
    2.77791411276104639959E-18L, -2.11142121435816608115E-17L, 1.55363195773620046921E-16L,
    -1.10559694773538630805E-15L, 7.60068429473540693410E-15L, -5.04218550472791168711E-14L,
    3.22379336594557470981E-13L, -1.98397439776494371520E-12L, 1.17361862988909016308E-11L,
    -6.66348972350202774223E-11L, 3.62559028155211703701E-10L, -1.88724975172282928790E-9L,
    9.38153738649577178388E-9L, -4.44505912879632808065E-8L, 2.00329475355213526229E-7L,
    -8.56872026469545474066E-7L, 3.47025130813767847674E-6L, -1.32731636560394358279E-5L,
    4.78156510755005422638E-5L, -1.61760815825896745588E-4L, 5.12285956168575772895E-4L,
    -1.51357245063125314899E-3L, 4.15642294431288815669E-3L, -1.05640848946261981558E-2L,
    2.47264490306265168283E-2L, -5.29459812080949914269E-2L, 1.02643658689847095384E-1L,
    -1.76416518357834055153E-1L, 2.52587186443633654823E-1L,
};
static const long double i1e_b[25] = {
    7.51729631084210481353E-18L, 4.41434832307170791151E-18L, -4.65030536848935832153E-17L,
    -3.20952592199342395980E-17L, 2.96262899764595013876E-16L, 3.30820231092092828324E-16L,
    -1.88035477551078244854E-15L, -3.81440307243700780478E-15L, 1.04202769841288027642E-14L,
    4.27244001671195135429E-14L, -2.10154184277266431302E-14L, -4.08355111109219731823E-13L,
    -7.19855177624590851209E-13L, 2.03562854414708950722E-12L, 1.41258074366137813316E-11L,
    3.25260358301548823856E-11L, -1.89749581235054123450E-11L, -5.58974346219658380687E-10L,
    -3.83538038596423702205E-9L, -2.63146884688951950684E-8L, -2.51223623787020892529E-7L,
    -3.88256480887769039346E-6L, -1.10588938762623716291E-4L, -9.76109749136146840777E-3L,
    7.78576235018280120474E-1L,
};
static const long double k0e_a[10] = {
    1.37446543561352307156E-16L, 4.25981614279661018399E-14L, 1.03496952576338420167E-11L,
    1.90451637722020886025E-9L, 2.53479107902614945675E-7L, 2.28621210311945178607E-5L,
    1.26461541144692592338E-3L, 3.59799365153615016266E-2L, 3.44289899924628486886E-1L,
    -5.35327393233902768720E-1L,
};
static const long double k0e_b[25] = {
    5.30043377268626276149E-18L, -1.64758043015242134646E-17L, 5.21039150503902756861E-17L,
    -1.67823109680541210385E-16L, 5.51205597852431940784E-16L, -1.84859337734377901440E-15L,
    6.34007647740507060557E-15L, -2.22751332699166985548E-14L, 8.03289077536357521100E-14L,
    -2.98009692317273043925E-13L, 1.14034058820847496303E-12L, -4.51459788337394416547E-12L,
    1.85594911495471785253E-11L, -7.95748924447710747776E-11L, 3.57739728140030116597E-10L,
    -1.69753450938905987466E-9L, 8.57403401741422608519E-9L, -4.66048989768794782956E-8L,
    2.76681363944501510342E-7L, -1.83175552271911948767E-6L, 1.39498137188764993662E-5L,
    -1.28495495816278026384E-4L, 1.56988388573005337491E-3L, -3.14481013119645005427E-2L,
    2.44030308206595545468E0L,
};
static const long double k1e_a[11] = {
    -7.02386347938628759343E-18L, -2.42744985051936593393E-15L, -6.66690169419932900609E-13L,
    -1.41148839263352776110E-10L, -2.21338763073472585583E-8L, -2.43340614156596823496E-6L,
    -1.73028895751305206302E-4L, -6.97572385963986435018E-3L, -1.22611180822657148235E-1L,
    -3.53155960776544875667E-1L, 1.52530022733894777053E0L,
};
static const long double k1e_b[25] = {
    -5.75674448366501715755E-18L, 1.79405087314755922667E-17L, -5.68946255844285935196E-17L,
    1.83809354436663880070E-16L, -6.05704724837331885336E-16L, 2.03870316562433424052E-15L,
    -7.01983709041831346144E-15L, 2.47715442448130437068E-14L, -8.97670518232499435011E-14L,
    3.34841966607842919884E-13L, -1.28917396095102890680E-12L, 5.13963967348173025100E-12L,
    -2.12996783842756842877E-11L, 9.21831518760500529508E-11L, -4.19035475934189648750E-10L,
    2.01504975519703286596E-9L, -1.03457624656780970260E-8L, 5.74108412545004946722E-8L,
    -3.50196060308781257119E-7L, 2.40648494783721712015E-6L, -1.93619797416608296024E-5L,
    1.95215518471351631108E-4L, -2.85781685962277938680E-3L, 1.03923736576817238437E-1L,
    2.72062619048444266945E0L,
};

/* Cephes's chbevl: the sum of c[i] T_i(x / 2) by Clenshaw's recurrence. */
static long double chbevl_ld(long double x, const long double *c, int n) {
  long double b0 = c[0], b1 = 0, b2 = 0;
  for (int i = 1; i < n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + c[i];
  }
  return 0.5L * (b0 - b2);
}
#define CHB(x, t) chbevl_ld((x), (t), (int)(sizeof(t) / sizeof((t)[0])))

/* exp(-|x|) I0(x) and exp(-|x|) I1(x): one expansion on [0, 8], one in
 * 32 / x beyond. */
static long double i0e_ld(long double x) {
  long double y = fabsl(x);
  if (y <= 8) return CHB(y / 2 - 2, i0e_a);
  return CHB(32 / y - 2, i0e_b) / sqrtl(y);
}
static long double i1e_ld(long double x) {
  long double y = fabsl(x);
  long double r = y <= 8 ? y * CHB(y / 2 - 2, i1e_a) : CHB(32 / y - 2, i1e_b) / sqrtl(y);
  return x < 0 ? -r : r;
}
/* I0 and I1 grow as e^|x|: their limit at infinity is exact, where
 * e^|x| * i0e would be inf * 0. */
static long double i0_ld(long double x) {
  if (isinf(x)) return INFINITY;
  return expl(fabsl(x)) * i0e_ld(x);
}
static long double i1_ld(long double x) {
  if (isinf(x)) return x;
  return expl(fabsl(x)) * i1e_ld(x);
}

/* K0 and K1 are +inf for x <= 0 (Eigen's MAXNUM). Below 2 an expansion
 * in x^2 corrected by log(x / 2) I(x); beyond, one in 8 / x.
 * `scaled` gives e^x K(x). */
static long double k0_any(long double x, bool scaled) {
  if (x <= 0) return INFINITY;
  if (x <= 2) {
    long double r = CHB(x * x - 2, k0e_a) - logl(0.5L * x) * i0_ld(x);
    return scaled ? r * expl(x) : r;
  }
  long double r = CHB(8 / x - 2, k0e_b) / sqrtl(x);
  return scaled ? r : r * expl(-x);
}
static long double k1_any(long double x, bool scaled) {
  if (x <= 0) return INFINITY;
  if (x <= 2) {
    long double r = logl(0.5L * x) * i1_ld(x) + CHB(x * x - 2, k1e_a) / x;
    return scaled ? r * expl(x) : r;
  }
  long double r = CHB(8 / x - 2, k1e_b) / sqrtl(x);
  return scaled ? r : r * expl(-x);
}
static long double k0_ld(long double x) { return k0_any(x, false); }
static long double k0e_ld(long double x) { return k0_any(x, true); }
static long double k1_ld(long double x) { return k1_any(x, false); }
static long double k1e_ld(long double x) { return k1_any(x, true); }

/* Y0 and Y1 are -inf for x <= 0, as Eigen's (the C library says NaN for
 * x < 0). */
static long double j0_ld(long double x) { return j0l(x); }
static long double j1_ld(long double x) { return j1l(x); }
static long double y0_ld(long double x) { return x <= 0 ? -INFINITY : y0l(x); }
static long double y1_ld(long double x) { return x <= 0 ? -INFINITY : y1l(x); }

/* float32 and float64 elements through the long double function, rounded once. */
#define LD_HELPERS(f)                                                                  \
  static inline float f##_s_float(float x) { return (float)f##_ld(x); }                \
  static inline double f##_s_double(double x) { return (double)f##_ld(x); }
LD_HELPERS(i0)
LD_HELPERS(i0e)
LD_HELPERS(i1)
LD_HELPERS(i1e)
LD_HELPERS(k0)
LD_HELPERS(k0e)
LD_HELPERS(k1)
LD_HELPERS(k1e)
LD_HELPERS(j0)
LD_HELPERS(j1)
LD_HELPERS(y0)
LD_HELPERS(y1)
#define SPECIAL(f, x) _Generic((x), float: f##_s_float, double: f##_s_double)(x)

#endif
