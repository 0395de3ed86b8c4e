import { describe, expect, it } from 'vitest';
import { checkGroup, checkTransactionSet } from '../core/edi/x12/index.js';
import { allErrors, firstSet, located, parseOk, readSample } from './edi/x12-samples.js';

const ORIGINAL = readSample('204-original.x12');

/** The set errors of the 204 sample with one segment line replaced (SE01 kept right when `count` is given). */
function with204(find: string, replace: string, count?: number): string[] {
  let text = ORIGINAL.replace(find, replace);
  if (count !== undefined) text = text.replace('SE*28*0001~', `SE*${count}*0001~`);
  if (text === ORIGINAL) throw new Error(`${find} not found`);
  return located(checkTransactionSet(firstSet(text), { functionalId: 'SM', component: '>' }));
}

describe('checkGroup (docs/edi.md#envelope-checks)', () => {
  const group = (text: string) => located(checkGroup(parseOk(text).interchange.groups[0]!));

  it('accepts the samples', () => {
    expect(group(ORIGINAL)).toEqual([]);
    expect(group(readSample('214-arrival.x12'))).toEqual([]);
  });

  it('checks GE01 against the count of sets and GE02 against GS06', () => {
    expect(group(ORIGINAL.replace('GE*1*101~', 'GE*2*101~'))).toEqual(['SetCountMismatch GE@31.1']);
    expect(group(ORIGINAL.replace('GE*1*101~', 'GE*1*102~'))).toEqual(['GroupControlNumberMismatch GE@31.2']);
    expect(checkGroup(parseOk(ORIGINAL.replace('GE*1*101~', 'GE*2*101~')).interchange.groups[0]!)[0]!.x12Code).toBe('5');
  });

  it('reports a missing GE', () => {
    expect(group(ORIGINAL.replace('GE*1*101~\n', ''))).toEqual(['GroupTrailerMissing GE@2']);
  });

  it('checks the GS elements: dates, times, control number, GS07, version and functional id', () => {
    const gs = 'GS*SM*ACMEFOODS*WAYBILLCARR*20261127*1330*101*X*004010~';
    expect(group(ORIGINAL.replace(gs, 'GS*SM*A*WAYBILLCARR*20260230*2561*10A*T*004010~').replace('GE*1*101', 'GE*1*10A'))).toEqual([
      'InvalidInterchangeContent GS@2.2',
      'InvalidInterchangeContent GS@2.4',
      'InvalidInterchangeContent GS@2.5',
      'InvalidGroupControlNumber GS@2.6',
      'InvalidInterchangeContent GS@2.7',
    ]);
    expect(group(ORIGINAL.replace(gs, 'GS*PO*ACMEFOODS*WAYBILLCARR*20261127*1330*101*X*005010~'))).toEqual([
      'GroupNotSupported GS@2.1',
      'GroupVersionNotSupported GS@2.8',
    ]);
    expect(group(ORIGINAL.replace(gs, 'GS*SM~'))).toEqual([
      'InvalidInterchangeContent GS@2.2',
      'InvalidInterchangeContent GS@2.3',
      'InvalidInterchangeContent GS@2.4',
      'InvalidInterchangeContent GS@2.5',
      'InvalidGroupControlNumber GS@2.6',
      'InvalidInterchangeContent GS@2.7',
      'InvalidInterchangeContent GS@2.8',
      'GroupControlNumberMismatch GE@31.2',
    ]);
  });
});

describe('checkTransactionSet: ST/SE', () => {
  it('checks SE01 against the count of segments, ST and SE included', () => {
    expect(with204('SE*28*0001~', 'SE*27*0001~')).toEqual(['SegmentCountMismatch SE@28.1']);
    expect(with204('SE*28*0001~', 'SE*028*0001~')).toEqual([]);
    expect(with204('SE*28*0001~', 'SE**0001~')).toEqual(['SegmentCountMismatch SE@28.1']);
  });

  it('checks SE02 against ST02, and ST02 is 4 to 9 characters', () => {
    expect(with204('SE*28*0001~', 'SE*28*0002~')).toEqual(['SetControlNumberMismatch SE@28.2']);
    const short = ORIGINAL.replace('ST*204*0001~', 'ST*204*001~').replace('SE*28*0001~', 'SE*28*001~');
    expect(located(checkTransactionSet(firstSet(short)))).toEqual(['InvalidSetControlNumber ST@1.2']);
  });

  it('reports a set without SE', () => {
    expect(with204('SE*28*0001~\n', '')).toEqual(['SetTrailerMissing SE@28']);
  });

  it('refuses a set it does not know, or in the wrong group', () => {
    const text = ORIGINAL.replace('ST*204*0001~', 'ST*850*0001~');
    expect(located(checkTransactionSet(firstSet(text), { functionalId: 'SM' }))).toEqual(['SetNotSupported ST@1.1']);
    expect(located(checkTransactionSet(firstSet(ORIGINAL), { functionalId: 'GF' }))).toEqual(['SetNotSupported ST@1.1']);
    expect(located(checkTransactionSet(firstSet(ORIGINAL)))).toEqual([]);
  });
});

describe('checkTransactionSet: segments against the set definition', () => {
  it('reports a mandatory segment missing where it was due', () => {
    expect(with204('B2A*00*LT~\n', '', 27)).toEqual(['MandatorySegmentMissing B2A@3']);
    const noStops = ORIGINAL.split('\n').filter((line, i) => i < 14 || i > 27).join('\n').replace('SE*28*0001~', 'SE*14*0001~');
    expect(located(checkTransactionSet(firstSet(noStops)))).toEqual(['MandatorySegmentMissing S5@13']);
  });

  it('reports a mandatory segment of a loop missing (210 L1 loop, 997 AK5)', () => {
    const ack = readSample('997-accept.x12').replace('AK5*A~\n', '').replace('SE*6*0010', 'SE*5*0010');
    expect(located(checkTransactionSet(firstSet(ack)))).toEqual(['MandatorySegmentMissing AK5@4']);
    const invoice = readSample('210-invoice.x12').replace('L3*****197500~\n', '').replace('SE*21*0014', 'SE*20*0014');
    expect(located(checkTransactionSet(firstSet(invoice)))).toEqual(['MandatorySegmentMissing L3@20']);
  });

  it('reports a segment over its maximum use, and a loop over its maximum', () => {
    expect(with204('G62*64*20261128*1*1200*UT~', 'G62*64*20261128*1*1200*UT~\nG62*64*20261128*1*1300*UT~', 29)).toEqual([
      'SegmentOverMaximumUse G62@7',
    ]);
    const stop = 'N1*BT*Acme Foods Inc*93*ACME01~\n';
    expect(with204(stop, stop.repeat(6), 33)).toEqual(['LoopOverMaximum N1@14']);
  });

  it('reports a segment out of sequence, one not in the set, and an unrecognized id', () => {
    expect(with204('MS3*WBLC*B**M~', 'S5*1*LD~')).toEqual(['SegmentOutOfSequence N7@12']);
    expect(with204('L3*42000*G***185000~', 'L3*42000*G***185000~\nB2A*00~', 29)).toEqual(['SegmentOutOfSequence B2A@28']);
    expect(with204('NTE*GEN*Keep dry. Call 30 minutes ahead.~', 'PO1*1~')).toEqual(['SegmentNotInSet PO1@8']);
    expect(with204('NTE*GEN*Keep dry. Call 30 minutes ahead.~', 'nte*GEN*x~')).toEqual(['UnrecognizedSegment nte@8']);
    expect(with204('NTE*GEN*Keep dry. Call 30 minutes ahead.', '')).toEqual(['UnrecognizedSegment @8']);
  });

  it('keeps its place in a loop after a segment it does not know', () => {
    expect(with204('AT8*G*L*42000*22~', 'AT8*G*L*42000*22~\nZZZ*1~', 29)).toEqual(['SegmentNotInSet ZZZ@17']);
  });

  it('matches loops inside loops: an N1 of a stop, a repeated AT7 loop of a 214', () => {
    const status = readSample('214-arrival.x12').replace('MS2*WBLC*TRK42~', 'MS2*WBLC*TRK42~AT7*AF*NS***20261128*0830*UT~').replace('SE*9*0013', 'SE*10*0013');
    expect(allErrors(status)).toEqual([]);
  });

  it('locates errors in a loop with its loop id', () => {
    const errors = checkTransactionSet(firstSet(ORIGINAL.replace('S5*1*LD*42000*L*22*PL~', 'S5*1*XX*42000*L*22*PL~')));
    expect(errors).toEqual([
      { segment: 'S5', position: 13, element: 2, code: 'InvalidCodeValue', message: expect.stringContaining('S502') as string, x12Code: '7', loopId: '0300' },
    ]);
  });
});

describe('checkTransactionSet: elements', () => {
  it('reports a mandatory element missing', () => {
    expect(with204('B2**WBLC**SHP-20261127-A**PP~', 'B2**WBLC**SHP-20261127-A~')).toEqual(['MandatoryElementMissing B2@2.6']);
    expect(with204('B2**WBLC**SHP-20261127-A**PP~', 'B2**WBLC****PP~')).toEqual(['MandatoryElementMissing B2@2.4']);
  });

  it('reports too many elements', () => {
    expect(with204('B2A*00*LT~', 'B2A*00*LT*X~')).toEqual(['TooManyElements B2A@3.3']);
  });

  it('checks minimum and maximum lengths, numbers counted in digits', () => {
    expect(with204('MS3*WBLC*B**M~', 'MS3*W*B**M~')).toEqual(['ElementTooShort MS3@7.1']);
    expect(with204('L11*PO-55123*PO~', `L11*${'P'.repeat(31)}*PO~`)).toEqual(['ElementTooLong L11@4.1']);
    expect(with204('L11*PO-55123*PO~', `L11*${'P'.repeat(30)}*PO~`)).toEqual([]);
    expect(with204('L3*42000*G***185000~', 'L3*-42000.50*G***185000~')).toEqual([]);
    expect(with204('L3*42000*G***185000~', 'L3*12345678901*G***185000~')).toEqual(['ElementTooLong L3@27.1']);
  });

  it('checks numbers: N0 and N2 are digits with a sign, R may have a decimal point', () => {
    expect(with204('L3*42000*G***185000~', 'L3*42000*G***1850.00~')).toEqual(['InvalidCharacter L3@27.5']);
    expect(with204('L3*42000*G***185000~', 'L3*4.2.0*G***185000~')).toEqual(['InvalidCharacter L3@27.1']);
    expect(with204('S5*2*UL*42000*L*22*PL~', 'S5*B*UL*42000*L*22*PL~')).toEqual(['InvalidCharacter S5@21.1']);
    expect(with204('L3*42000*G***185000~', 'L3*-*G***185000~')).toEqual(['InvalidCharacter L3@27.1']);
  });

  it('checks dates CCYYMMDD as calendar dates', () => {
    expect(with204('G62*64*20261128*', 'G62*64*20280229*')).toEqual([]);
    expect(with204('G62*64*20261128*', 'G62*64*20270229*')).toEqual(['InvalidDate G62@6.2']);
    expect(with204('G62*64*20261128*', 'G62*64*20261131*')).toEqual(['InvalidDate G62@6.2']);
    expect(with204('G62*64*20261128*', 'G62*64*20261300*')).toEqual(['InvalidDate G62@6.2']);
    expect(with204('G62*64*20261128*', 'G62*64*261128*')).toEqual(['ElementTooShort G62@6.2']);
  });

  it('checks times HHMM[SS[D..]]', () => {
    for (const good of ['0000', '2359', '235959', '2359591', '23595912']) {
      expect(with204('*1*1200*UT~', `*1*${good}*UT~`)).toEqual([]);
    }
    expect(with204('*1*1200*UT~', '*1*2400*UT~')).toEqual(['InvalidTime G62@6.4']);
    expect(with204('*1*1200*UT~', '*1*1260*UT~')).toEqual(['InvalidTime G62@6.4']);
    expect(with204('*1*1200*UT~', '*1*120060*UT~')).toEqual(['InvalidTime G62@6.4']);
    expect(with204('*1*1200*UT~', '*1*12000*UT~')).toEqual(['InvalidTime G62@6.4']);
    expect(with204('*1*1200*UT~', '*1*12:0*UT~')).toEqual(['InvalidTime G62@6.4']);
  });

  it('checks the code values the mapping relies on', () => {
    expect(with204('B2A*00*LT~', 'B2A*05*LT~')).toEqual(['InvalidCodeValue B2A@3.1']);
    const reject = readSample('990-reject.x12').replace('*20261127*D~', '*20261127*X~');
    expect(located(checkTransactionSet(firstSet(reject)))).toEqual(['InvalidCodeValue B1@2.4']);
  });

  it('checks syntax rules: paired, at least one, conditional', () => {
    expect(with204('G62*64*20261128*1*1200*UT~', 'G62*64**1*1200*UT~')).toEqual(['ConditionalElementMissing G62@6.2']);
    expect(with204('G62*64*20261128*1*1200*UT~', 'G62*****UT~')).toEqual(['ConditionalElementMissing G62@6.1']);
    expect(with204('N4*Chicago*IL*60601*US~', 'N4*Chicago*IL*60601*US**X1~')).toEqual(['ConditionalElementMissing N4@11.5']);
    expect(with204('N4*Chicago*IL*60601*US~', 'N4*Chicago*IL*60601*US*SL*X1~')).toEqual([]);
  });

  it('refuses a line break inside an element', () => {
    expect(with204('NTE*GEN*Keep dry.', 'NTE*GEN*Keep\ndry.')).toEqual(['InvalidCharacter NTE@8.2']);
  });

  it('checks a composite by its first component (997 AK401)', () => {
    const ack = readSample('997-reject.x12');
    expect(located(checkTransactionSet(firstSet(ack.replace('AK4*3*373*8*', 'AK4*3>1*373*8*')), { component: '>' }))).toEqual([]);
    expect(located(checkTransactionSet(firstSet(ack.replace('AK4*3*373*8*', 'AK4*123*373*8*')), { component: '>' }))).toEqual([
      'ElementTooLong AK4@5.1',
    ]);
  });

  it('keeps at most 100 errors', () => {
    const text = ORIGINAL.replace('NTE*GEN*Keep dry. Call 30 minutes ahead.~', 'NTE*GEN*x*y~'.repeat(500)).replace('SE*28*', 'SE*527*');
    expect(checkTransactionSet(firstSet(text))).toHaveLength(100);
  });
});
