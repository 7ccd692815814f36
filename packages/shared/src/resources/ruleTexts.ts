import type { Language } from '../language.ts';

/**
 * The definitions' own sentences that no field label gives (a pattern's message, a unique rule's clash) in the
 * other UI languages. Chinese is the definition's text, binding byte for byte; the required sentences
 * (`required: '请输入员工姓名'`) need no entry here: labels.ts words them from the field's translated label.
 * labels.test.ts fails when a definition's sentence has no translation.
 */
export const RULE_TEXTS: Record<string, Record<Exclude<Language, 'zh'>, string>> = {
  // patterns
  '长度在 2 到 20 个字符': { en: 'Between 2 and 20 characters', es: 'Entre 2 y 20 caracteres', ja: '2〜20文字で入力してください' },
  '请输入正确的11位手机号码': { en: 'Please enter a valid 11-digit mobile number', es: 'Introduzca un número de móvil válido de 11 dígitos', ja: '正しい11桁の携帯電話番号を入力してください' },
  '数据范围只能是全部、本级或自定义': { en: 'The data scope can only be All, Own level or Custom', es: 'El ámbito de datos solo puede ser Todo, Nivel propio o Personalizado', ja: 'データ範囲は 全部、本レベル、カスタム のいずれかです' },
  '名称只能包含字母、数字、下划线、冒号、点和横线，并以字母开头': {
    en: 'The name may only contain letters, digits, underscores, colons, dots and hyphens, and must start with a letter',
    es: 'El nombre solo puede contener letras, dígitos, guiones bajos, dos puntos, puntos y guiones, y debe empezar por una letra',
    ja: '名前には英字、数字、アンダースコア、コロン、ドット、ハイフンのみ使用でき、英字で始める必要があります',
  },
  // unique rules
  '字典名称已存在': { en: 'The dictionary name already exists', es: 'El nombre del diccionario ya existe', ja: '辞書名は既に存在します' },
  '用户名已存在': { en: 'The username already exists', es: 'El nombre de usuario ya existe', ja: 'ユーザー名は既に存在します' },
  '邮箱已被其他用户使用': { en: 'The e-mail address is already used by another user', es: 'El correo electrónico ya lo usa otro usuario', ja: 'このメールアドレスは他のユーザーが使用しています' },
  '角色名称已存在': { en: 'The role name already exists', es: 'El nombre del rol ya existe', ja: 'ロール名は既に存在します' },
  '该部门下已存在同名岗位': { en: 'The department already has a position with this name', es: 'El departamento ya tiene un puesto con este nombre', ja: 'この部署には同じ名前の役職が既にあります' },
  '菜单名称已存在': { en: 'The menu name already exists', es: 'El nombre del menú ya existe', ja: 'メニュー名は既に存在します' },
  '权限名称已存在': { en: 'The permission name already exists', es: 'El nombre del permiso ya existe', ja: '権限名は既に存在します' },
  '单位名称已存在': { en: 'The company name already exists', es: 'El nombre de la empresa ya existe', ja: '会社名は既に存在します' },
  '该单位已存在此身份证号的员工': { en: 'The company already has a staff member with this ID card number', es: 'La empresa ya tiene un empleado con este documento', ja: 'この会社にはこの身分証番号の従業員が既にいます' },
  '该员工在该派遣单位本年度已有期初数据': { en: 'This staff member already has opening figures for this year under this dispatch entity', es: 'Este empleado ya tiene datos de apertura de este año con esta entidad de cesión', ja: 'この従業員にはこの派遣元で今年度の期首データが既にあります' },
  '该员工在该派遣单位本月已有扣除数据': { en: 'This staff member already has deductions for this month under this dispatch entity', es: 'Este empleado ya tiene deducciones de este mes con esta entidad de cesión', ja: 'この従業員にはこの派遣元で今月の控除データが既にあります' },
  '该扣除项目在该月份已有标准': { en: 'This deduction item already has a limit from this month', es: 'Este concepto de deducción ya tiene un límite desde este mes', ja: 'この控除項目にはこの月の基準が既にあります' },
  '该单位在该月份已有结算条款': { en: 'The company already has settlement terms from this month', es: 'La empresa ya tiene condiciones de liquidación desde este mes', ja: 'この会社にはこの月の精算条件が既にあります' },
  '该派遣单位在该月份已有计税方式': { en: 'The dispatch company already has a VAT regime from this month', es: 'La empresa de cesión ya tiene un régimen de IVA desde este mes', ja: 'この派遣元にはこの月の課税方式が既にあります' },
  '模板名称已存在': { en: 'The template name already exists', es: 'El nombre de la plantilla ya existe', ja: 'テンプレート名は既に存在します' },
};
