/**
 * ISO 3166-1 officially assigned country codes (all 249 entries).
 *
 * Browser-safe, dependency-free. Source: the ISO 3166-1 table as published in the Debian `iso-codes`
 * package (4.15.0), which mirrors the ISO 3166 Maintenance Agency list. Only *officially assigned*
 * codes are included: exceptionally reserved codes (e.g. `UK`, `EU`, `UN`), transitionally reserved codes
 * and user-assigned codes (`AA`, `QM`–`QZ`, `XA`–`XZ` incl. `XK`, `ZZ`) are rejected.
 *
 * Data format: one 8-character token per country, `AA` alpha-2 + `AAA` alpha-3 + `NNN` numeric,
 * sorted by alpha-2.
 */
const TABLE = `
  ADAND020 AEARE784 AFAFG004 AGATG028 AIAIA660 ALALB008 AMARM051 AOAGO024 AQATA010 ARARG032 ASASM016 ATAUT040
  AUAUS036 AWABW533 AXALA248 AZAZE031 BABIH070 BBBRB052 BDBGD050 BEBEL056 BFBFA854 BGBGR100 BHBHR048 BIBDI108
  BJBEN204 BLBLM652 BMBMU060 BNBRN096 BOBOL068 BQBES535 BRBRA076 BSBHS044 BTBTN064 BVBVT074 BWBWA072 BYBLR112
  BZBLZ084 CACAN124 CCCCK166 CDCOD180 CFCAF140 CGCOG178 CHCHE756 CICIV384 CKCOK184 CLCHL152 CMCMR120 CNCHN156
  COCOL170 CRCRI188 CUCUB192 CVCPV132 CWCUW531 CXCXR162 CYCYP196 CZCZE203 DEDEU276 DJDJI262 DKDNK208 DMDMA212
  DODOM214 DZDZA012 ECECU218 EEEST233 EGEGY818 EHESH732 ERERI232 ESESP724 ETETH231 FIFIN246 FJFJI242 FKFLK238
  FMFSM583 FOFRO234 FRFRA250 GAGAB266 GBGBR826 GDGRD308 GEGEO268 GFGUF254 GGGGY831 GHGHA288 GIGIB292 GLGRL304
  GMGMB270 GNGIN324 GPGLP312 GQGNQ226 GRGRC300 GSSGS239 GTGTM320 GUGUM316 GWGNB624 GYGUY328 HKHKG344 HMHMD334
  HNHND340 HRHRV191 HTHTI332 HUHUN348 IDIDN360 IEIRL372 ILISR376 IMIMN833 ININD356 IOIOT086 IQIRQ368 IRIRN364
  ISISL352 ITITA380 JEJEY832 JMJAM388 JOJOR400 JPJPN392 KEKEN404 KGKGZ417 KHKHM116 KIKIR296 KMCOM174 KNKNA659
  KPPRK408 KRKOR410 KWKWT414 KYCYM136 KZKAZ398 LALAO418 LBLBN422 LCLCA662 LILIE438 LKLKA144 LRLBR430 LSLSO426
  LTLTU440 LULUX442 LVLVA428 LYLBY434 MAMAR504 MCMCO492 MDMDA498 MEMNE499 MFMAF663 MGMDG450 MHMHL584 MKMKD807
  MLMLI466 MMMMR104 MNMNG496 MOMAC446 MPMNP580 MQMTQ474 MRMRT478 MSMSR500 MTMLT470 MUMUS480 MVMDV462 MWMWI454
  MXMEX484 MYMYS458 MZMOZ508 NANAM516 NCNCL540 NENER562 NFNFK574 NGNGA566 NINIC558 NLNLD528 NONOR578 NPNPL524
  NRNRU520 NUNIU570 NZNZL554 OMOMN512 PAPAN591 PEPER604 PFPYF258 PGPNG598 PHPHL608 PKPAK586 PLPOL616 PMSPM666
  PNPCN612 PRPRI630 PSPSE275 PTPRT620 PWPLW585 PYPRY600 QAQAT634 REREU638 ROROU642 RSSRB688 RURUS643 RWRWA646
  SASAU682 SBSLB090 SCSYC690 SDSDN729 SESWE752 SGSGP702 SHSHN654 SISVN705 SJSJM744 SKSVK703 SLSLE694 SMSMR674
  SNSEN686 SOSOM706 SRSUR740 SSSSD728 STSTP678 SVSLV222 SXSXM534 SYSYR760 SZSWZ748 TCTCA796 TDTCD148 TFATF260
  TGTGO768 THTHA764 TJTJK762 TKTKL772 TLTLS626 TMTKM795 TNTUN788 TOTON776 TRTUR792 TTTTO780 TVTUV798 TWTWN158
  TZTZA834 UAUKR804 UGUGA800 UMUMI581 USUSA840 UYURY858 UZUZB860 VAVAT336 VCVCT670 VEVEN862 VGVGB092 VIVIR850
  VNVNM704 VUVUT548 WFWLF876 WSWSM882 YEYEM887 YTMYT175 ZAZAF710 ZMZMB894 ZWZWE716
`;

/** One officially assigned ISO 3166-1 entry. */
export interface Country {
  readonly alpha2: string;
  readonly alpha3: string;
  /** Three-digit numeric code, zero-padded (e.g. `"040"` for Austria). */
  readonly numeric: string;
}

/** All 249 officially assigned ISO 3166-1 entries, sorted by alpha-2. */
export const COUNTRIES: readonly Country[] = Object.freeze(
  TABLE.trim()
    .split(/\s+/)
    .map((t) => Object.freeze({ alpha2: t.slice(0, 2), alpha3: t.slice(2, 5), numeric: t.slice(5, 8) })),
);

const BY_ALPHA2 = new Map<string, Country>(COUNTRIES.map((c) => [c.alpha2, c]));
const BY_ALPHA3 = new Map<string, Country>(COUNTRIES.map((c) => [c.alpha3, c]));
const BY_NUMERIC = new Map<string, Country>(COUNTRIES.map((c) => [c.numeric, c]));

/** True for an officially assigned ISO 3166-1 alpha-2 code. Case-sensitive: `de` is rejected. */
export function isCountry2(code: unknown): code is string {
  return typeof code === 'string' && BY_ALPHA2.has(code);
}

/** True for an officially assigned ISO 3166-1 alpha-3 code. Case-sensitive: `deu` is rejected. */
export function isCountry3(code: unknown): code is string {
  return typeof code === 'string' && BY_ALPHA3.has(code);
}

/** True for an officially assigned ISO 3166-1 numeric code given as exactly three digits (`"040"`, not `"40"`). */
export function isCountryNumeric(code: unknown): code is string {
  return typeof code === 'string' && BY_NUMERIC.has(code);
}

/** Alpha-3 code for an alpha-2 code, or `undefined` if the alpha-2 code is not officially assigned. */
export function alpha3Of(alpha2: string): string | undefined {
  return BY_ALPHA2.get(alpha2)?.alpha3;
}

/** Three-digit numeric code for an alpha-2 code, or `undefined` if not officially assigned. */
export function numericOf(alpha2: string): string | undefined {
  return BY_ALPHA2.get(alpha2)?.numeric;
}

/** Alpha-2 code for an alpha-3 or three-digit numeric code, or `undefined` if not officially assigned. */
export function alpha2Of(alpha3OrNumeric: string): string | undefined {
  return (BY_ALPHA3.get(alpha3OrNumeric) ?? BY_NUMERIC.get(alpha3OrNumeric))?.alpha2;
}
