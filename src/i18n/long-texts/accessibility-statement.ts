/**
 * The accessibility statement: what the site does for people with disabilities,
 * what is not accessible yet and how to report a problem. States only what the site really does;
 * change it when the site changes. Placeholders: see long-text.ts.
 */
import type { LongTexts } from './long-text.ts';

export const ACCESSIBILITY_STATEMENT: LongTexts = {
  'uz-latn': {
    title: 'Foydalanish imkoniyatlari toʻgʻrisida bayonot',
    lead: 'Ushbu saytni {siteName} yuritadi. Biz saytdan imkon qadar koʻproq odam foydalana olishini istaymiz, jumladan, koʻrish, eshitish, harakatlanish yoki oʻqishda qiynaladiganlar ham. Bu yerda sayt qanchalik qulayligi, nimalar hali toʻliq qulay emasligi va muammo haqida qanday xabar berish mumkinligi aytilgan.',
    sections: [
      {
        heading: 'Saytdan qanday foydalanish mumkin',
        paragraphs: [
          'Sayt WCAG 2.2 (veb-kontentdan foydalanish imkoniyatlari boʻyicha xalqaro tavsiyalar) talablariga AA darajasida mos keladi. Demak, saytda quyidagilarni qilishingiz mumkin:',
        ],
        list: [
          'har bir sahifadan faqat klaviatura bilan, sichqonchasiz foydalanish;',
          'har bir sahifadan ekrandagi matnni ovoz chiqarib oʻqiydigan dastur bilan foydalanish;',
          'sahifa yuqorisidagi “Maxsus imkoniyatlar” panelida matnni toʻrt bosqichda 150 foizgacha kattalashtirish;',
          'oʻsha panelda oq-qora rejimni yoki yuqori kontrastni yoqish;',
          'tanlangan sozlamalarni qayta tanlamasdan barcha sahifalarda saqlab qolish;',
          'JavaScript oʻchirilgan boʻlsa ham har bir sahifani oʻqish: u faqat qidiruv, murojaat shakli, soʻrovnomalar va maxsus imkoniyatlar uchun kerak;',
          'sekin mobil internetda ham sahifalarni ochish: ular kichik hajmli;',
          'ilgari ochilgan sahifalarni internetsiz oʻqish.',
        ],
      },
      {
        heading: 'Hali toʻliq qulay boʻlmagan qismlar',
        paragraphs: ['Saytning ayrim qismlari hali toʻliq qulay emas. Biz quyidagi kamchiliklarni bilamiz:'],
        list: [
          'Hokimlik eʼlon qiladigan hujjatlar (PDF va Word fayllar, skanerlangan sahifalar) qulay boʻlmasligi mumkin. Masalan, ovoz chiqarib oʻqiydigan dastur ularni doim ham oʻqiy olmaydi.',
          'Matnlardagi ayrim eski rasmlarning tavsifi yoʻq.',
          'Boshqa saytlarda (masalan, YouTube) joylashgan videolarda subtitr boʻlmasligi mumkin.',
          'Xarita OpenStreetMap saytidan olinadi, undan ovoz chiqarib oʻqiydigan dastur bilan foydalanib boʻlmaydi. Manzil matn koʻrinishida ham yozilgan.',
          'Murojaat shaklida robot emasligingizni tekshiradigan hCaptcha xizmati bor, ayrim odamlar bu tekshiruvdan oʻta olmaydi. Bunday holda {helpline} raqamiga qoʻngʻiroq qiling, {email} manziliga yozing yoki hokimlikka keling: {address}.',
        ],
      },
      {
        heading: 'Sayt qanday tekshiriladi',
        paragraphs: [
          'Saytning har bir yangi versiyasi avtomatik tekshiriladi: qulaylik xatolarini topadigan axe dasturi va W3C tashkilotining HTML tekshiruvchisi bilan.',
          'Bundan tashqari, biz saytni qoʻlda ham tekshiramiz: klaviatura va sensorli ekran bilan, telefon va kompyuter ekrani kengligida, saytning toʻrtala tilida.',
        ],
      },
      {
        heading: 'Muammo haqida xabar berish',
        paragraphs: [
          'Agar sahifadan yoki uning bir qismidan foydalana olmasangiz, bizga xabar bering. {helpline} raqamiga qoʻngʻiroq qiling yoki {email} manziliga yozing.',
          'Sahifaning manzilini (havolasini) ayting va muammoni tushuntirib bering.',
          'Biz qonunda murojaatlar uchun belgilangan muddatlarda javob beramiz: 15 kun ichida, masala oʻrganishni talab qilsa — bir oy ichida.',
        ],
      },
    ],
  },
  'uz-cyrl': {
    title: 'Фойдаланиш имкониятлари тўғрисида баёнот',
    lead: 'Ушбу сайтни {siteName} юритади. Биз сайтдан имкон қадар кўпроқ одам фойдалана олишини истаймиз, жумладан, кўриш, эшитиш, ҳаракатланиш ёки ўқишда қийналадиганлар ҳам. Бу ерда сайт қанчалик қулайлиги, нималар ҳали тўлиқ қулай эмаслиги ва муаммо ҳақида қандай хабар бериш мумкинлиги айтилган.',
    sections: [
      {
        heading: 'Сайтдан қандай фойдаланиш мумкин',
        paragraphs: [
          'Сайт WCAG 2.2 (веб-контентдан фойдаланиш имкониятлари бўйича халқаро тавсиялар) талабларига AA даражасида мос келади. Демак, сайтда қуйидагиларни қилишингиз мумкин:',
        ],
        list: [
          'ҳар бир саҳифадан фақат клавиатура билан, сичқончасиз фойдаланиш;',
          'ҳар бир саҳифадан экрандаги матнни овоз чиқариб ўқийдиган дастур билан фойдаланиш;',
          'саҳифа юқорисидаги «Махсус имкониятлар» панелида матнни тўрт босқичда 150 фоизгача катталаштириш;',
          'ўша панелда оқ-қора режимни ёки юқори контрастни ёқиш;',
          'танланган созламаларни қайта танламасдан барча саҳифаларда сақлаб қолиш;',
          'JavaScript ўчирилган бўлса ҳам ҳар бир саҳифани ўқиш: у фақат қидирув, мурожаат шакли, сўровномалар ва махсус имкониятлар учун керак;',
          'секин мобил интернетда ҳам саҳифаларни очиш: улар кичик ҳажмли;',
          'илгари очилган саҳифаларни интернетсиз ўқиш.',
        ],
      },
      {
        heading: 'Ҳали тўлиқ қулай бўлмаган қисмлар',
        paragraphs: ['Сайтнинг айрим қисмлари ҳали тўлиқ қулай эмас. Биз қуйидаги камчиликларни биламиз:'],
        list: [
          'Ҳокимлик эълон қиладиган ҳужжатлар (PDF ва Word файллар, сканерланган саҳифалар) қулай бўлмаслиги мумкин. Масалан, овоз чиқариб ўқийдиган дастур уларни доим ҳам ўқий олмайди.',
          'Матнлардаги айрим эски расмларнинг тавсифи йўқ.',
          'Бошқа сайтларда (масалан, YouTube) жойлашган видеоларда субтитр бўлмаслиги мумкин.',
          'Харита OpenStreetMap сайтидан олинади, ундан овоз чиқариб ўқийдиган дастур билан фойдаланиб бўлмайди. Манзил матн кўринишида ҳам ёзилган.',
          'Мурожаат шаклида робот эмаслигингизни текширадиган hCaptcha хизмати бор, айрим одамлар бу текширувдан ўта олмайди. Бундай ҳолда {helpline} рақамига қўнғироқ қилинг, {email} манзилига ёзинг ёки ҳокимликка келинг: {address}.',
        ],
      },
      {
        heading: 'Сайт қандай текширилади',
        paragraphs: [
          'Сайтнинг ҳар бир янги версияси автоматик текширилади: қулайлик хатоларини топадиган axe дастури ва W3C ташкилотининг HTML текширувчиси билан.',
          'Бундан ташқари, биз сайтни қўлда ҳам текширамиз: клавиатура ва сенсорли экран билан, телефон ва компьютер экрани кенглигида, сайтнинг тўртала тилида.',
        ],
      },
      {
        heading: 'Муаммо ҳақида хабар бериш',
        paragraphs: [
          'Агар саҳифадан ёки унинг бир қисмидан фойдалана олмасангиз, бизга хабар беринг. {helpline} рақамига қўнғироқ қилинг ёки {email} манзилига ёзинг.',
          'Саҳифанинг манзилини (ҳаволасини) айтинг ва муаммони тушунтириб беринг.',
          'Биз қонунда мурожаатлар учун белгиланган муддатларда жавоб берамиз: 15 кун ичида, масала ўрганишни талаб қилса — бир ой ичида.',
        ],
      },
    ],
  },
  ru: {
    title: 'Заявление о доступности',
    lead: 'Этот сайт ведёт {siteName}. Мы хотим, чтобы им могли пользоваться как можно больше людей, в том числе те, кому трудно видеть, слышать, двигаться или читать. Здесь сказано, насколько сайт доступен, что пока доступно не полностью и как сообщить о проблеме.',
    sections: [
      {
        heading: 'Как можно пользоваться сайтом',
        paragraphs: ['Сайт соответствует Руководству по доступности веб-контента (WCAG) 2.2 на уровне AA. Это значит, что вы можете:'],
        list: [
          'пользоваться любой страницей только с клавиатуры, без мыши;',
          'пользоваться любой страницей с программой чтения с экрана;',
          'увеличить текст до 150% в четыре шага на панели «Специальные возможности» вверху страницы;',
          'включить на той же панели чёрно-белый режим или высокий контраст;',
          'сохранить эти настройки на всех страницах, не выбирая их заново;',
          'читать любую страницу с выключенным JavaScript: он нужен только для поиска, формы обращения, опросов и специальных возможностей;',
          'открывать страницы даже при медленном мобильном интернете: они небольшие;',
          'читать уже открытые страницы без интернета.',
        ],
      },
      {
        heading: 'Что пока доступно не полностью',
        paragraphs: ['Некоторые части сайта пока доступны не полностью. Мы знаем о таких проблемах:'],
        list: [
          'Документы, которые публикует хокимият (файлы PDF и Word, отсканированные страницы), могут быть недоступны. Например, программа чтения с экрана не всегда может их прочитать.',
          'У некоторых старых изображений в текстах нет описания.',
          'У видео на других сайтах, например на YouTube, может не быть субтитров.',
          'Карту показывает OpenStreetMap, и с программой чтения с экрана ею пользоваться нельзя. Адрес также указан текстом.',
          'В форме обращения есть проверка hCaptcha («я не робот»), и некоторые люди не могут её пройти. В этом случае позвоните по номеру {helpline}, напишите на {email} или приходите в хокимият по адресу: {address}.',
        ],
      },
      {
        heading: 'Как мы проверяем сайт',
        paragraphs: [
          'Каждая новая версия сайта проверяется автоматически: программой axe, которая находит ошибки доступности, и валидатором HTML консорциума W3C.',
          'Кроме того, мы проверяем сайт вручную — с клавиатуры и на сенсорном экране, при ширине экрана телефона и компьютера, на всех четырёх языках сайта.',
        ],
      },
      {
        heading: 'Как сообщить о проблеме',
        paragraphs: [
          'Если вы не можете воспользоваться страницей или её частью, сообщите нам. Позвоните по номеру {helpline} или напишите на {email}.',
          'Укажите адрес страницы (ссылку на неё) и опишите проблему.',
          'Мы ответим в сроки, которые закон устанавливает для обращений: в течение 15 дней, а если вопрос требует изучения, — в течение месяца.',
        ],
      },
    ],
  },
  en: {
    title: 'Accessibility statement',
    lead: 'This website is run by {siteName}. We want as many people as possible to be able to use it, including people who find it hard to see, hear, move or read. This statement explains how accessible the site is, what is not fully accessible yet and how to tell us about a problem.',
    sections: [
      {
        heading: 'How you can use this site',
        paragraphs: ['The site follows the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA. This means you can:'],
        list: [
          'use every page with a keyboard alone, without a mouse',
          'use every page with a screen reader',
          'make the text larger in four steps, up to 150%, in the "Accessibility options" panel at the top of the page',
          'turn on greyscale or high contrast in the same panel',
          'keep these settings on every page without choosing them again',
          'read every page with JavaScript turned off: only the search, the form for writing to the administration, surveys and the accessibility options need it',
          'open pages even on a slow mobile connection, because they are small',
          'read pages you have already opened when you have no internet connection',
        ],
      },
      {
        heading: 'What is not fully accessible',
        paragraphs: ['Some parts of the site are not fully accessible yet. We know about these problems:'],
        list: [
          'Documents the administration publishes, such as PDF files, Word files and scanned pages, may not be accessible. For example, a screen reader cannot always read them.',
          'Some older pictures in texts have no description.',
          'Videos on other sites, such as YouTube, may have no captions.',
          'The map comes from OpenStreetMap and cannot be used with a screen reader. The address is also written out as text.',
          'The form for writing to the administration uses hCaptcha, a check that you are not a robot, and some people cannot pass it. Instead, you can call {helpline}, write to {email} or come to the administration at {address}.',
        ],
      },
      {
        heading: 'How we test the site',
        paragraphs: [
          'The site is checked automatically every time it is built: with axe, a tool that finds accessibility errors, and with the W3C HTML checker.',
          'We also test it by hand, with a keyboard and on a touch screen, at phone and desktop screen widths, in all four languages of the site.',
        ],
      },
      {
        heading: 'Reporting a problem',
        paragraphs: [
          'If you cannot use a page or part of a page, tell us. Call {helpline} or write to {email}.',
          'Give the address of the page (its link) and describe the problem.',
          'We will reply within the time limits the law sets for requests from the public: 15 days, or one month if the question needs to be looked into.',
        ],
      },
    ],
  },
};
