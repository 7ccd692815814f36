import { defineResource, type FieldDef } from '../resource/types.ts';

/**
 * Monthly salary rows (月度工资) per client company and month, and the confirmation log.
 * A row is a snapshot of the staff member taken by "生成" (generate); "计算" fills the figures with the payroll
 * engine; "确认" locks the month (tag = 1). Money is yuan on the wire and integer fen in the database.
 */

/**
 * What a helper's caller may add to a field: never its name or kind, so the field keeps the literal name the
 * caller gave (`SalaryFieldName`, RowOf and the database type read it) and the helper's kind.
 */
type FieldExtra = Omit<Partial<FieldDef>, 'name' | 'kind'>;

const m = <N extends string>(name: N, label: string, extra: FieldExtra = {}): FieldDef & { name: N; kind: 'money' } => ({ name, kind: 'money', label, list: false, ...extra });
const r = <N extends string>(name: N, label: string): FieldDef & { name: N; kind: 'ratio' } => ({ name, kind: 'ratio', label, list: false });
/** Figures written only by the calculation (never accepted from the client). */
const calc = <N extends string>(name: N, label: string, extra: FieldExtra = {}) => m(name, label, { readOnly: true, excel: false, ...extra });

/** Largest overtime or deduction a row accepts (yuan); anything above is a typing error. */
export const SALARY_ADJUSTMENT_MAX_YUAN = 1_000_000;
/** The largest annual one-time bonus a row takes, in yuan. */
export const SALARY_BONUS_MAX_YUAN = 10_000_000;

/** Base and ratio fields copied from the staff record by "生成" (same API names as on accountsStaff). */
export const SALARY_INSURANCE_FIELDS = [
  'gjjBase',
  'gjjRatio',
  'yanglaoBase',
  'yanglaoRatioCompany',
  'yanglaoRatioSelf',
  'yiliaoBase',
  'yiliaoRatioCompany',
  'yiliaoRatioSelf',
  'yiliaoBaseSelf',
  'shiyeBase',
  'shiyeRatioCompany',
  'shiyeRatioSelf',
  'gongshangBase',
  'gongshangRatioCompany',
  'shengyuBase',
  'shengyuRatioCompany',
] as const;

/** Every staff field the salary row snapshots, by its (shared) API name. */
export const SALARY_SNAPSHOT_FIELDS = [
  'staffName',
  'censusType',
  'idCard',
  'sex',
  'phone',
  'salary',
  'taxesType',
  'insureType',
  'deduct',
  'contractDate',
  'contractStart',
  'contractEnd',
  // months of employment with the withholding agent count from the hire month (P3)
  'inductionDate',
  // the rate dictionary decides the ratios unless the worker's own are explicitly kept (P4)
  'ratioOverride',
  // the 60,000 simplified basic deduction (issue 10 item 6)
  'simplifiedDeduction',
  ...SALARY_INSURANCE_FIELDS,
] as const;

export const salaryResource = defineResource({
  name: 'accountsSalary',
  table: 'accounts_salary',
  permission: 'ACCOUNTSSALARY',
  label: '月度工资',
  labels: {
    en: {
      _label: 'Monthly salary', id: 'ID', companyId: 'Company', companyName: 'Company name', dispatchCompany: 'Dispatch company', month: 'Month',
      staffName: 'Name', censusType: 'Household type', idCard: 'ID card no.', sex: 'Sex', phone: 'Mobile', salary: 'Base salary', fullSalary: 'Monthly salary',
      paidDays: 'Days paid', prorationRule: 'Part-month pay', taxesType: 'Tax type', insureType: 'Insurance type', deduct: 'Special deductions',
      contractDate: 'Signing date', contractStart: 'Contract start', contractEnd: 'Contract end', inductionDate: 'Hire date', ratioOverride: 'Use own ratios',
      gjjBase: 'Housing fund base', gjjRatio: 'Housing fund rate', yanglaoBase: 'Pension base', yanglaoRatioCompany: 'Pension rate (employer)',
      yanglaoRatioSelf: 'Pension rate (personal)', yiliaoBase: 'Medical insurance base', yiliaoRatioCompany: 'Medical rate (employer)',
      yiliaoRatioSelf: 'Medical rate (personal)', yiliaoBaseSelf: 'Medical base (personal)', shiyeBase: 'Unemployment base',
      shiyeRatioCompany: 'Unemployment rate (employer)', shiyeRatioSelf: 'Unemployment rate (personal)', gongshangBase: 'Work injury base',
      gongshangRatioCompany: 'Work injury rate (employer)', shengyuBase: 'Maternity base', shengyuRatioCompany: 'Maternity rate (employer)',
      fiveOne: 'Personal contributions', jiaban: 'Overtime pay', koukuan: 'Deduction', bonus: 'Annual one-time bonus',
      bonusMerged: 'Bonus merged into the month\'s wages', bonusTax: 'Bonus tax', backPay: 'Back pay', backPayMonth: 'Back pay for month',
      backDeduct: 'Back deduction', backDeductMonth: 'Back deduction for month', severance: 'Severance pay', severanceExempt: 'Severance exempt part',
      severanceTax: 'Severance tax', tax: 'Income tax', realSalary: 'Net pay', carriedIn: 'Owed from last month', unpaid: 'Owed (not deducted)',
      advanced: 'Advanced by company', tag: 'Locked', gross: 'Gross pay', yanglao: 'Pension (personal)', yiliao: 'Medical (personal)',
      shiye: 'Unemployment (personal)', gongjijin: 'Housing fund (personal)', monthIndex: 'Months employed this year', employerYanglao: 'Pension (employer)',
      employerYiliao: 'Medical (employer)', employerShiye: 'Unemployment (employer)', employerGongshang: 'Work injury (employer)',
      employerShengyu: 'Maternity (employer)', employerGongjijin: 'Housing fund (employer)', employerTotal: 'Employer contributions',
      labourCost: 'Total labour cost', cumulativeIncome: 'Cumulative income', cumulativeTaxable: 'Cumulative taxable income', cumulativeTax: 'Cumulative tax',
      taxableThisMonth: 'Taxable income this month', origin: 'Source', adjustEdited: 'Edited by hand', calculated: 'Calculated', calculateTime: 'Calculated at',
      createTime: 'Created', updateTime: 'Updated', otherDeduct: 'Other deductions', simplifiedDeduction: '60,000 simplified deduction',
      siBackSelf: 'Back contributions (employee)', siBackCompany: 'Back contributions (employer)',
    },
    es: {
      _label: 'Salario mensual', id: 'ID', companyId: 'Empresa', companyName: 'Nombre de la empresa', dispatchCompany: 'Empresa de cesión', month: 'Mes',
      staffName: 'Nombre', censusType: 'Tipo de hukou', idCard: 'N.º de documento', sex: 'Sexo', phone: 'Móvil', salary: 'Salario base',
      fullSalary: 'Salario mensual', paidDays: 'Días pagados', prorationRule: 'Pago de mes parcial', taxesType: 'Tipo de impuesto',
      insureType: 'Tipo de seguro', deduct: 'Deducciones especiales', contractDate: 'Fecha de firma', contractStart: 'Inicio del contrato',
      contractEnd: 'Fin del contrato', inductionDate: 'Fecha de alta', ratioOverride: 'Usar porcentajes propios', gjjBase: 'Base del fondo de vivienda',
      gjjRatio: 'Tasa del fondo de vivienda', yanglaoBase: 'Base de pensión', yanglaoRatioCompany: 'Tasa de pensión (empresa)',
      yanglaoRatioSelf: 'Tasa de pensión (personal)', yiliaoBase: 'Base de seguro médico', yiliaoRatioCompany: 'Tasa médica (empresa)',
      yiliaoRatioSelf: 'Tasa médica (personal)', yiliaoBaseSelf: 'Base médica (personal)', shiyeBase: 'Base de desempleo',
      shiyeRatioCompany: 'Tasa de desempleo (empresa)', shiyeRatioSelf: 'Tasa de desempleo (personal)', gongshangBase: 'Base de accidentes laborales',
      gongshangRatioCompany: 'Tasa de accidentes (empresa)', shengyuBase: 'Base de maternidad', shengyuRatioCompany: 'Tasa de maternidad (empresa)',
      fiveOne: 'Aportaciones personales', jiaban: 'Horas extra', koukuan: 'Deducción', bonus: 'Paga extra anual',
      bonusMerged: 'Paga extra sumada al salario del mes', bonusTax: 'Impuesto de la paga extra', backPay: 'Atrasos', backPayMonth: 'Mes de los atrasos',
      backDeduct: 'Descuento retroactivo', backDeductMonth: 'Mes del descuento retroactivo', severance: 'Indemnización por despido',
      severanceExempt: 'Parte exenta de la indemnización', severanceTax: 'Impuesto de la indemnización', tax: 'IRPF', realSalary: 'Salario neto',
      carriedIn: 'Adeudado del mes anterior', unpaid: 'Adeudado (no descontado)', advanced: 'Anticipado por la empresa', tag: 'Bloqueado',
      gross: 'Salario bruto', yanglao: 'Pensión (personal)', yiliao: 'Seguro médico (personal)', shiye: 'Desempleo (personal)',
      gongjijin: 'Fondo de vivienda (personal)', monthIndex: 'Meses trabajados este año', employerYanglao: 'Pensión (empresa)',
      employerYiliao: 'Salud (empresa)', employerShiye: 'Desempleo (empresa)', employerGongshang: 'Accidentes laborales (empresa)',
      employerShengyu: 'Maternidad (empresa)', employerGongjijin: 'Fondo de vivienda (empresa)', employerTotal: 'Aportaciones de la empresa',
      labourCost: 'Coste laboral total', cumulativeIncome: 'Ingresos acumulados', cumulativeTaxable: 'Base imponible acumulada',
      cumulativeTax: 'Impuesto acumulado', taxableThisMonth: 'Base imponible del mes', origin: 'Origen', adjustEdited: 'Editado a mano',
      calculated: 'Calculado', calculateTime: 'Calculado el', createTime: 'Creado', updateTime: 'Actualizado', otherDeduct: 'Otras deducciones',
      simplifiedDeduction: 'Deducción simplificada de 60 000', siBackSelf: 'Regularización de cotizaciones (empleado)',
      siBackCompany: 'Regularización de cotizaciones (empresa)',
    },
    ja: {
      _label: '月次給与', id: 'ID', companyId: '取引先', companyName: '取引先名', dispatchCompany: '派遣元会社', month: '月', staffName: '氏名', censusType: '戸籍種別',
      idCard: '身分証番号', sex: '性別', phone: '携帯電話', salary: '基本給', fullSalary: '月給', paidDays: '支給日数', prorationRule: '月途中の給与計算', taxesType: '税目',
      insureType: '保険種別', deduct: '特別付加控除', contractDate: '締結日', contractStart: '契約開始', contractEnd: '契約終了', inductionDate: '入社日', ratioOverride: '個人比率を使用',
      gjjBase: '住宅積立金基数', gjjRatio: '住宅積立金率', yanglaoBase: '年金保険基数', yanglaoRatioCompany: '年金保険会社負担率', yanglaoRatioSelf: '年金保険個人負担率', yiliaoBase: '医療保険基数',
      yiliaoRatioCompany: '医療保険会社負担率', yiliaoRatioSelf: '医療保険個人負担率', yiliaoBaseSelf: '医療保険個人基数', shiyeBase: '失業保険基数', shiyeRatioCompany: '失業保険会社負担率',
      shiyeRatioSelf: '失業保険個人負担率', gongshangBase: '労災保険基数', gongshangRatioCompany: '労災保険会社負担率', shengyuBase: '出産保険基数', shengyuRatioCompany: '出産保険会社負担率',
      fiveOne: '個人負担合計', jiaban: '残業代', koukuan: '控除額', bonus: '年間一時賞与', bonusMerged: '賞与を当月給与に合算', bonusTax: '賞与の税額', backPay: '遡及支給',
      backPayMonth: '遡及支給の対象月', backDeduct: '遡及控除', backDeductMonth: '遡及控除の対象月', severance: '経済補償金', severanceExempt: '経済補償金の非課税額', severanceTax: '経済補償金の税額',
      tax: '個人所得税', realSalary: '手取り', carriedIn: '前月の控除不足額', unpaid: '控除不足額', advanced: '会社立替額', tag: 'ロック', gross: '総支給額', yanglao: '年金保険(個人)',
      yiliao: '医療保険(個人)', shiye: '失業保険(個人)', gongjijin: '住宅積立金(個人)', monthIndex: '本年在職月数', employerYanglao: '年金保険（会社）', employerYiliao: '医療保険（会社）',
      employerShiye: '失業保険（会社）', employerGongshang: '労災保険（会社）', employerShengyu: '出産保険（会社）', employerGongjijin: '住宅積立金（会社）', employerTotal: '会社負担合計',
      labourCost: '人件費合計', cumulativeIncome: '累計収入', cumulativeTaxable: '累計課税所得', cumulativeTax: '累計納税額', taxableThisMonth: '当月課税所得', origin: '出所',
      adjustEdited: '手動修正', calculated: '計算済み', calculateTime: '計算日時', createTime: '作成日時', updateTime: '更新日時', otherDeduct: 'その他控除',
      simplifiedDeduction: '6万元簡易控除', siBackSelf: '社会保険差額精算（個人）', siBackCompany: '社会保険差額精算（会社）',
    },
  },
  dialogWidth: 800,
  // No field is `required`: the inline edit sends only {id, jiaban, koukuan, bonus, bonusMerged}; creation is
  // checked by the server.
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'companyId', kind: 'ref', label: '单位', ref: { resource: 'accountsCompany', labelField: 'companyName' }, filter: 'eq', list: false },
    { name: 'companyName', kind: 'string', label: '单位名称', readOnly: true },
    { name: 'dispatchCompany', kind: 'string', label: '派遣单位', readOnly: true, list: false },
    { name: 'month', kind: 'month', label: '月份', filter: 'eq' },
    { name: 'staffName', kind: 'string', label: '姓名', maxLength: 50, filter: 'like' },
    { name: 'censusType', kind: 'dict', dict: 'census_type', label: '户籍类型', list: false },
    { name: 'idCard', kind: 'idCard', label: '身份证号', filter: 'like', width: 180 },
    { name: 'sex', kind: 'dict', dict: 'sex', label: '性别', list: false },
    { name: 'phone', kind: 'phone', label: '手机号', filter: 'like' },
    m('salary', '基本工资', { list: true }),
    // A joiner's or leaver's month is prorated (P2): 基本工资 is then the part of 月薪标准 for the days paid.
    m('fullSalary', '月薪标准', { readOnly: true, excel: false }),
    { name: 'paidDays', kind: 'int', label: '计薪天数', readOnly: true, list: false, excel: false },
    { name: 'prorationRule', kind: 'dict', dict: 'proration_rule', label: '不满月工资计算', readOnly: true, list: false, excel: false },
    { name: 'taxesType', kind: 'dict', dict: 'taxes_type', label: '税种', list: false },
    { name: 'insureType', kind: 'dict', dict: 'insure_type', label: '保险种类', list: false },
    m('deduct', '专项附加扣除', { list: true }),
    // 其他扣除 (商业健康险, 个人养老金) of the month: from 专项附加扣除明细 when the month has a row there
    m('otherDeduct', '其他扣除', { readOnly: true, excel: false }),
    { name: 'simplifiedDeduction', kind: 'bool', label: '适用6万元减除', readOnly: true, list: false, excel: false },
    { name: 'contractDate', kind: 'date', label: '签订日期', list: false },
    { name: 'contractStart', kind: 'date', label: '合同开始', list: false },
    { name: 'contractEnd', kind: 'date', label: '合同结束', list: false },
    { name: 'inductionDate', kind: 'date', label: '入职日期', readOnly: true, list: false, excel: false },
    { name: 'ratioOverride', kind: 'bool', label: '使用个人比例', readOnly: true, list: false, excel: false },
    m('gjjBase', '公积金基数'),
    r('gjjRatio', '公积金比例'),
    m('yanglaoBase', '养老保险基数'),
    r('yanglaoRatioCompany', '养老保险单位比例'),
    r('yanglaoRatioSelf', '养老保险个人比例'),
    m('yiliaoBase', '医疗保险基数'),
    r('yiliaoRatioCompany', '医疗保险单位比例'),
    r('yiliaoRatioSelf', '医疗保险个人比例'),
    m('yiliaoBaseSelf', '医疗保险个人缴费基数'),
    m('shiyeBase', '失业保险基数'),
    r('shiyeRatioCompany', '失业保险单位比例'),
    r('shiyeRatioSelf', '失业保险个人比例'),
    m('gongshangBase', '工伤保险基数'),
    r('gongshangRatioCompany', '工伤保险单位比例'),
    m('shengyuBase', '生育保险基数'),
    r('shengyuRatioCompany', '生育保险单位比例'),
    calc('fiveOne', '五险一金(个人)', { list: true }),
    m('jiaban', '加班费', { list: true, max: SALARY_ADJUSTMENT_MAX_YUAN }),
    m('koukuan', '扣款', { list: true, max: SALARY_ADJUSTMENT_MAX_YUAN }),
    // 全年一次性奖金 (issue 10 item 7): taxed on its own (财政部 税务总局公告2023年第30号, once per tax year, to
    // 2027-12-31) unless merged into the month's wages; its tax is its own line, apart from 个人所得税.
    m('bonus', '全年一次性奖金', { max: SALARY_BONUS_MAX_YUAN }),
    { name: 'bonusMerged', kind: 'bool', label: '奖金并入当月工资计税', list: false },
    // 补发 / 补扣 (issue 20 item 7): wages of this month with the earlier month they refer to; 经济补偿金 exempt up to
    // 3 × the local average annual wage, the rest taxed on its own (财税〔2018〕164号), its tax on its own line.
    m('backPay', '补发', { max: SALARY_ADJUSTMENT_MAX_YUAN }),
    { name: 'backPayMonth', kind: 'month', label: '补发所属月份', list: false },
    m('backDeduct', '补扣', { max: SALARY_ADJUSTMENT_MAX_YUAN }),
    { name: 'backDeductMonth', kind: 'month', label: '补扣所属月份', list: false },
    m('severance', '经济补偿金', { max: SALARY_BONUS_MAX_YUAN }),
    calc('severanceExempt', '经济补偿金免税额'),
    calc('severanceTax', '经济补偿金个税'),
    calc('tax', '个人所得税', { list: true }),
    calc('bonusTax', '年终奖个税'),
    calc('realSalary', '实发工资', { list: true }),
    // What the month's pay could not cover (issue 20 item 5): 实发 is never below zero; 上月应扣未扣 is deducted first,
    // the rest left is 应扣未扣 (next month) or 单位垫付, by the client company's 欠款处理方式.
    calc('carriedIn', '上月应扣未扣', { list: true }),
    calc('unpaid', '应扣未扣', { list: true }),
    calc('advanced', '单位垫付', { list: true }),
    { name: 'tag', kind: 'int', label: '锁定', readOnly: true, list: false, excel: false },
    calc('gross', '应发工资'),
    calc('yanglao', '养老保险(个人)'),
    calc('yiliao', '医疗保险(个人)'),
    calc('shiye', '失业保险(个人)'),
    calc('gongjijin', '公积金(个人)'),
    { name: 'monthIndex', kind: 'int', label: '本年任职受雇月份数', readOnly: true, list: false, excel: false },
    // The employer's side (issue 10 item 9): what the client company is billed on top of 应发.
    calc('employerYanglao', '养老保险(单位)'),
    calc('employerYiliao', '医疗保险(单位)'),
    calc('employerShiye', '失业保险(单位)'),
    calc('employerGongshang', '工伤保险(单位)'),
    calc('employerShengyu', '生育保险(单位)'),
    calc('employerGongjijin', '公积金(单位)'),
    // 补差 of earlier, confirmed months placed into this month (issue 24: 调基 and 社保平账): the personal part is
    // inside 五险一金(个人), the employer part inside 单位缴纳合计
    calc('siBackSelf', '补缴社保个人'),
    calc('siBackCompany', '补缴社保单位'),
    calc('employerTotal', '单位缴纳合计'),
    calc('labourCost', '用工成本合计'),
    calc('cumulativeIncome', '累计收入'),
    calc('cumulativeTaxable', '累计应纳税所得额'),
    calc('cumulativeTax', '累计应纳税额'),
    calc('taxableThisMonth', '本月应纳税所得额'),
    // Kept by "生成" when the month is generated again: hand-added rows and hand-edited 加班费/扣款.
    { name: 'origin', kind: 'string', label: '来源', readOnly: true, list: false, excel: false },
    { name: 'adjustEdited', kind: 'bool', label: '人工修改', readOnly: true, list: false, excel: false },
    { name: 'calculated', column: 'calc_state', kind: 'bool', label: '已计算', readOnly: true, list: false, excel: false },
    { name: 'calculateTime', kind: 'datetime', label: '计算时间', readOnly: true, list: false, excel: false },
    { name: 'createTime', kind: 'datetime', label: '创建时间', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});

/** The API name of an accountsSalary field: a literal union, so a misspelt or renamed field fails tsc where it is named. */
export type SalaryFieldName = (typeof salaryResource.fields)[number]['name'];

/** Who confirmed which company's month, and when; one row per (company, month), enforced by the database. */
export const confirmLogResource = defineResource({
  name: 'accountsConfirmLog',
  table: 'accounts_confirm_log',
  permission: 'ACCOUNTSSALARY',
  label: '工资确认记录',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'companyId', kind: 'ref', label: '单位', ref: { resource: 'accountsCompany', labelField: 'companyName' }, filter: 'eq', list: false },
    { name: 'companyName', kind: 'string', label: '单位名称', readOnly: true },
    { name: 'month', kind: 'month', label: '月份', filter: 'eq' },
    { name: 'rowCount', kind: 'int', label: '工资条数', readOnly: true },
    { name: 'username', kind: 'string', label: '确认人账号', readOnly: true },
    { name: 'cname', kind: 'string', label: '确认人', readOnly: true },
    { name: 'createTime', kind: 'datetime', label: '确认时间', readOnly: true },
  ],
});
