/* special_misc.h — the rest of tf.math.special: Dawson's integral, the
 * exponential integral Ei, the Fresnel integrals and Spence's function, by
 * Cephes's rational approximations (dawsn.c, ei.c, fresnl.c, spence.c) as
 * TF's special_math_op_misc_impl.h ports them; the double coefficients
 * are evaluated in long double for both float32 and float64, rounded once
 * to the result's type. Included by ops_elementwise.c only, after
 * special_bessel.h (whose LD_HELPERS these use). */
#ifndef MF_SPECIAL_MISC_H
#define MF_SPECIAL_MISC_H

/* Cephes's polevl: c[0] x^n + ... + c[n], Horner's rule. */
static long double polevl_ld(long double x, const long double *c, int n) {
  long double r = c[0];
  for (int i = 1; i <= n; i++) r = r * x + c[i];
  return r;
}
#define POLY(x, t) polevl_ld((x), (t), (int)(sizeof(t) / sizeof((t)[0])) - 1)

/* Dawson's integral e^-x^2 integral_0^x e^t^2 dt, odd in x: a rational
 * approximation below 3.25, two in 1/x^2 to 1e9, then 1 / 2x. */
static long double dawsn_ld(long double x) {
  static const long double an[] = {
      1.13681498971755972054E-11L, 8.49262267667473811108E-10L, 1.94434204175553054283E-8L,
      9.53151741254484363489E-7L,  3.07828309874913200438E-6L,  3.52513368520288738649E-4L,
      -8.50149846724410912031E-4L, 4.22618223005546594270E-2L,  -9.17480371773452345351E-2L,
      9.99999999999999994612E-1L};
  static const long double ad[] = {
      2.40372073066762605484E-11L, 1.48864681368493396752E-9L, 5.21265281010541664570E-8L,
      1.27258478273186970203E-6L,  2.32490249820789513991E-5L, 3.25524741826057911661E-4L,
      3.48805814657162590916E-3L,  2.79448531198828973716E-2L, 1.58874241960120565368E-1L,
      5.74918629489320327824E-1L,  1.00000000000000000539E0L};
  static const long double bn[] = {
      5.08955156417900903354E-1L,  -2.44754418142697847934E-1L, 9.41512335303534411857E-2L,
      -2.18711255142039025206E-2L, 3.66207612329569181322E-3L,  -4.23209114460388756528E-4L,
      3.59641304793896631888E-5L,  -2.14640351719968974225E-6L, 9.10010780076391431042E-8L,
      -2.40274520828250956942E-9L, 3.59233385440928410398E-11L};
  static const long double bd[] = {
      1.0L, -6.31839869873368190192E-1L, 2.36706788228248691528E-1L, -5.31806367003223277662E-2L,
      8.48041718586295374409E-3L, -9.47996768486665330168E-4L, 7.81025592944552338085E-5L,
      -4.55875153252442634831E-6L, 1.89100358111421846170E-7L, -4.91324691331920606875E-9L,
      7.18466403235734541950E-11L};
  static const long double cn[] = {-5.90592860534773254987E-1L, 6.29235242724368800674E-1L,
                                   -1.72858975380388136411E-1L, 1.64837047825189632310E-2L,
                                   -4.86827613020462700845E-4L};
  static const long double cd[] = {1.0L, -2.69820057197544900361E0L, 1.73270799045947845857E0L,
                                   -3.93708582281939493482E-1L, 3.44278924041233391079E-2L,
                                   -9.73655226040941223894E-4L};
  long double a = fabsl(x), r;
  if (a < 3.25L) {
    long double x2 = a * a;
    r = a * POLY(x2, an) / POLY(x2, ad);
  } else if (a < 1.0e9L) {
    long double ix = 1 / a, ix2 = ix * ix;
    long double z = a < 6.25L ? POLY(ix2, bn) / (a * POLY(ix2, bd)) : POLY(ix2, cn) / (a * POLY(ix2, cd));
    r = 0.5L * (ix2 * z + ix);
  } else {
    r = 0.5L / a;
  }
  return x < 0 ? -r : r;
}

/* Ei(x) for x >= 0 (NaN below, as TF's): Ei(x) - gamma - log x by a
 * rational function below 2, then x e^-x Ei(x) - 1 by one in 1/x per
 * interval up to 64 and beyond; Ei(inf) = inf (where e^x * 0 would be
 * NaN). */
static long double expint_ld(long double x) {
  static const long double a[] = {-5.350447357812542947283E0L, 2.185049168816613393830E2L,
                                  -4.176572384826693777058E3L, 5.541176756393557601232E4L,
                                  -3.313381331178144034309E5L, 1.592627163384945414220E6L};
  static const long double b[] = {1.0L, -5.250547959112862969197E1L, 1.259616186786790571525E3L,
                                  -1.756549581973534652631E4L, 1.493062117002725991967E5L,
                                  -7.294949239640527645655E5L, 1.592627163384945429726E6L};
  static const long double a6[] = {1.981808503259689673238E-2L, -1.271645625984917501326E0L,
                                   -2.088160335681228318920E0L, 2.755544509187936721172E0L,
                                   -4.409507048701600257171E-1L, 4.665623805935891391017E-2L,
                                   -1.545042679673485262580E-3L, 7.059980605299617478514E-5L};
  static const long double b6[] = {1.0L, 1.476498670914921440652E0L, 5.629177174822436244827E-1L,
                                   1.699017897879307263248E-1L, 2.291647179034212017463E-2L,
                                   4.450150439728752875043E-3L, 1.727439612206521482874E-4L,
                                   3.953167195549672482304E-5L};
  static const long double a5[] = {-1.373215375871208729803E0L, -7.084559133740838761406E-1L,
                                   1.580806855547941010501E0L, -2.601500427425622944234E-1L,
                                   2.994674694113713763365E-2L, -1.038086040188744005513E-3L,
                                   4.371064420753005429514E-5L, 2.141783679522602903795E-6L};
  static const long double b5[] = {1.0L, 8.585231423622028380768E-1L, 4.483285822873995129957E-1L,
                                   7.687932158124475434091E-2L, 2.449868241021887685904E-2L,
                                   8.832165941927796567926E-4L, 4.590952299511353531215E-4L,
                                   -4.729848351866523044863E-6L, 2.665195537390710170105E-6L};
  static const long double a2[] = {-2.106934601691916512584E0L, 1.732733869664688041885E0L,
                                   -2.423619178935841904839E-1L, 2.322724180937565842585E-2L,
                                   2.372880440493179832059E-4L, -8.343219561192552752335E-5L,
                                   1.363408795605250394881E-5L, -3.655412321999253963714E-7L,
                                   1.464941733975961318456E-8L, 6.176407863710360207074E-10L};
  static const long double b2[] = {1.0L, -2.298062239901678075778E-1L, 1.105077041474037862347E-1L,
                                   -1.566542966630792353556E-2L, 2.761106850817352773874E-3L,
                                   -2.089148012284048449115E-4L, 1.708528938807675304186E-5L,
                                   -4.459311796356686423199E-7L, 1.394634930353847498145E-8L,
                                   6.150865933977338354138E-10L};
  static const long double a4[] = {-2.458119367674020323359E-1L, -1.483382253322077687183E-1L,
                                   7.248291795735551591813E-2L, -1.348315687380940523823E-2L,
                                   1.342775069788636972294E-3L, -7.942465637159712264564E-5L,
                                   2.644179518984235952241E-6L, -4.239473659313765177195E-8L};
  static const long double b4[] = {1.0L, -1.044225908443871106315E-1L, -2.676453128101402655055E-1L,
                                   9.695000254621984627876E-2L, -1.601745692712991078208E-2L,
                                   1.496414899205908021882E-3L, -8.462452563778485013756E-5L,
                                   2.728938403476726394024E-6L, -4.239462431819542051337E-8L};
  static const long double a7[] = {1.212561118105456670844E-1L, -5.823133179043894485122E-1L,
                                   2.348887314557016779211E-1L, -3.040034318113248237280E-2L,
                                   1.510082146865190661777E-3L, -2.523137095499571377122E-5L};
  static const long double b7[] = {1.0L, -1.002252150365854016662E0L, 2.928709694872224144953E-1L,
                                   -3.337004338674007801307E-2L, 1.560544881127388842819E-3L,
                                   -2.523137093603234562648E-5L};
  static const long double a3[] = {-7.657847078286127362028E-1L, 6.886192415566705051750E-1L,
                                   -2.132598113545206124553E-1L, 3.346107552384193813594E-2L,
                                   -3.076541477344756050249E-3L, 1.747119316454907477380E-4L,
                                   -6.103711682274170530369E-6L, 1.218032765428652199087E-7L,
                                   -1.086076102793290233007E-9L};
  static const long double b3[] = {1.0L, -1.888802868662308731041E0L, 1.066691687211408896850E0L,
                                   -2.751915982306380647738E-1L, 3.930852688233823569726E-2L,
                                   -3.414684558602365085394E-3L, 1.866844370703555398195E-4L,
                                   -6.345146083130515357861E-6L, 1.239754287483206878024E-7L,
                                   -1.086076102793126632978E-9L};
  if (x < 0) return NAN;
  if (x != x || x == INFINITY) return x;
  if (x < 2) return x * POLY(x, a) / POLY(x, b) + 0.57721566490153286060651209008240243L + logl(x);
  long double w = 1 / x, f;
  if (x < 4)
    f = POLY(w, a6) / POLY(w, b6);
  else if (x < 8)
    f = POLY(w, a5) / POLY(w, b5);
  else if (x < 16)
    f = POLY(w, a2) / POLY(w, b2);
  else if (x < 32)
    f = POLY(w, a4) / POLY(w, b4);
  else if (x < 64)
    f = POLY(w, a7) / POLY(w, b7);
  else
    f = POLY(w, a3) / POLY(w, b3);
  return expl(x) * w * (w * f + 1);
}

/* a^2 mod 4 for a float32 or float64 value a < 2^24, exactly up to the
 * last rounding: pi a^2 / 2 = 2 pi (a^2 / 4), so the angle of the
 * Fresnel asymptotics is reduced before it is formed (pi / 2 * a^2 in
 * long double would be ~2e-10 off at a = 36974, 20 ulps of the result).
 * a = h + l with h a's first 24 bits: h^2, 2hl and l^2 are exact. */
static long double x2_mod4(long double a) {
  long double h = (float)a, l = a - h;
  long double t = fmodl(h * h, 4) + fmodl(2 * h * l, 4) + fmodl(l * l, 4);
  return fmodl(t, 4);
}

/* The Fresnel integrals C(x) and S(x) (integrals of cos and sin of
 * pi t^2 / 2 from 0 to x), odd in x: power series below x^2 = 2.5625,
 * the auxiliary functions f and g beyond, +-1/2 past 36974. */
static long double fresnel_ld(long double x, bool sine) {
  static const long double sn[] = {-2.99181919401019853726E3L, 7.08840045257738576863E5L,
                                   -6.29741486205862506537E7L, 2.54890880573376359104E9L,
                                   -4.42979518059697779103E10L, 3.18016297876567817986E11L};
  static const long double sd[] = {1.0L, 2.81376268889994315696E2L, 4.55847810806532581675E4L,
                                   5.17343888770096400730E6L, 4.19320245898111231129E8L,
                                   2.24411795645340920940E10L, 6.07366389490084639049E11L};
  static const long double cn[] = {-4.98843114573573548651E-8L, 9.50428062829859605134E-6L,
                                   -6.45191435683965050962E-4L, 1.88843319396703850064E-2L,
                                   -2.05525900955013891793E-1L, 9.99999999999999998822E-1L};
  static const long double cd[] = {3.99982968972495980367E-12L, 9.15439215774657478799E-10L,
                                   1.25001862479598821474E-7L, 1.22262789024179030997E-5L,
                                   8.68029542941784300606E-4L, 4.12142090722199792936E-2L,
                                   1.00000000000000000118E0L};
  static const long double fn[] = {4.21543555043677546506E-1L, 1.43407919780758885261E-1L,
                                   1.15220955073585758835E-2L, 3.45017939782574027900E-4L,
                                   4.63613749287867322088E-6L, 3.05568983790257605827E-8L,
                                   1.02304514164907233465E-10L, 1.72010743268161828879E-13L,
                                   1.34283276233062758925E-16L, 3.76329711269987889006E-20L};
  static const long double fd[] = {1.0L, 7.51586398353378947175E-1L, 1.16888925859191382142E-1L,
                                   6.44051526508858611005E-3L, 1.55934409164153020873E-4L,
                                   1.84627567348930545870E-6L, 1.12699224763999035261E-8L,
                                   3.60140029589371370404E-11L, 5.88754533621578410010E-14L,
                                   4.52001434074129701496E-17L, 1.25443237090011264384E-20L};
  static const long double gn[] = {5.04442073643383265887E-1L, 1.97102833525523411709E-1L,
                                   1.87648584092575249293E-2L, 6.84079380915393090172E-4L,
                                   1.15138826111884280931E-5L, 9.82852443688422223854E-8L,
                                   4.45344415861750144738E-10L, 1.08268041139020870318E-12L,
                                   1.37555460633261799868E-15L, 8.36354435630677421531E-19L,
                                   1.86958710162783235106E-22L};
  static const long double gd[] = {1.0L, 1.47495759925128324529E0L, 3.37748989120019970451E-1L,
                                   2.53603741420338795122E-2L, 8.14679107184306179049E-4L,
                                   1.27545075667729118702E-5L, 1.04314589657571990585E-7L,
                                   4.60680728146520428211E-10L, 1.10273215066240270757E-12L,
                                   1.38796531259578871258E-15L, 8.39158816283118707363E-19L,
                                   1.86958710162783236342E-22L};
  const long double pi = 3.14159265358979323846264338327950288L;
  long double a = fabsl(x), r;
  if (a > 36974.0L) {
    r = 0.5L;
  } else if (a * a < 2.5625L) {
    long double x2 = a * a, x4 = x2 * x2;
    r = sine ? a * x2 * POLY(x4, sn) / POLY(x4, sd) : a * POLY(x4, cn) / POLY(x4, cd);
  } else {
    long double x2 = a * a, t = 1 / (pi * x2), u = t * t;
    long double f = 1 - u * POLY(u, fn) / POLY(u, fd);
    long double g = t * POLY(u, gn) / POLY(u, gd);
    long double z = pi / 2 * x2_mod4(a), c = cosl(z), s = sinl(z), y = 1 / (pi * a);
    r = sine ? 0.5L - (f * c + g * s) * y : 0.5L + (f * s - g * c) * y;
  }
  if (x != x) return x;
  return x < 0 ? -r : r;
}
static long double fresnel_cos_ld(long double x) { return fresnel_ld(x, false); }
static long double fresnel_sin_ld(long double x) { return fresnel_ld(x, true); }

/* Spence's function, the integral from 1 to x of log t / (1 - t), for
 * x >= 0 (NaN below, as TF's): a rational function of w near 1, with the
 * reflections log y log(1 - y) for y < 1/2 and -log^2(x) / 2 for x > 3/2;
 * -inf at +inf (where the reflection would be inf * 0). */
static long double spence_ld(long double x) {
  static const long double a[] = {4.65128586073990045278E-5L, 7.31589045238094711071E-3L,
                                  1.33847639578309018650E-1L, 8.79691311754530315341E-1L,
                                  2.71149851196553469920E0L,  4.25697156008121755724E0L,
                                  3.29771340985225106936E0L,  1.00000000000000000126E0L};
  static const long double b[] = {6.90990488912553276999E-4L, 2.54043763932544379113E-2L,
                                  2.82974860602568089943E-1L, 1.41172597751831069617E0L,
                                  3.63800533345137075418E0L,  5.03278880143316990390E0L,
                                  3.54771340985225096217E0L,  9.99999999999999998740E-1L};
  const long double pi2o6 = 1.64493406684822643647241516664602519L;
  if (x < 0) return NAN;
  if (x == 0) return pi2o6;
  if (x == 1) return 0;
  if (x == INFINITY) return -INFINITY;
  long double y = x < 2 ? x : 1 / x, w;
  if (y > 1.5L)
    w = 1 / y - 1;
  else
    w = y < 0.5L ? -y : y - 1;
  long double r = -w * POLY(w, a) / POLY(w, b);
  long double z = logl(y);
  if (y < 0.5L) r = -z * log1pl(-y) + pi2o6 - r;
  if (x > 1.5L) r = -0.5L * z * z - r;
  return r;
}

LD_HELPERS(dawsn)
LD_HELPERS(expint)
LD_HELPERS(fresnel_cos)
LD_HELPERS(fresnel_sin)
LD_HELPERS(spence)

#endif
