/**
 * The privacy notice: what the site sends, what stays on the visitor's device, which
 * other services load and when, and the visitor's rights. States only what the site really does;
 * change it when the site changes. Placeholders: see long-text.ts.
 */
import type { LongTexts } from './long-text.ts';

export const PRIVACY_NOTICE: LongTexts = {
  'uz-latn': {
    title: 'Maxfiylik siyosati',
    lead: '{siteName} ushbu sayt orqali shaxsga doir maʼlumotlarni faqat siz murojaat yuborganingizda oladi. Bu yerda nimalar va nima uchun yuborilishi, nimalar faqat qurilmangizda saqlanishi va qanday huquqlaringiz borligi aytilgan.',
    sections: [
      {
        heading: 'Murojaat yuborganingizda',
        paragraphs: ['“Murojaat yuborish” shakli orqali murojaat yuborganingizda sayt hokimlikning murojaatlar tizimiga quyidagilarni uzatadi:'],
        list: ['ismingiz;', 'telefon raqamingiz;', 'elektron pochta manzilingiz;', 'murojaat mavzusi;', 'murojaat matni.'],
      },
      {
        heading: 'Bu maʼlumotlar qanday ishlatiladi',
        paragraphs: [
          'Hokimlik bu maʼlumotlardan faqat murojaatingizga javob berish uchun foydalanadi.',
          'Ular Oʻzbekiston Respublikasining “Jismoniy va yuridik shaxslarning murojaatlari toʻgʻrisida”gi Qonuni talablariga muvofiq saqlanadi.',
          'Shaxsga doir maʼlumotlarga Oʻzbekiston Respublikasining “Shaxsga doir maʼlumotlar toʻgʻrisida”gi Qonuniga muvofiq ishlov beriladi.',
        ],
      },
      {
        heading: 'Faqat qurilmangizda saqlanadigan maʼlumotlar',
        paragraphs: ['Baʼzi maʼlumotlar faqat qurilmangizdagi brauzerda saqlanadi. Ular hech qachon hokimlikka ham, boshqa hech kimga ham yuborilmaydi:'],
        list: [
          'tanlagan tilingiz;',
          'maxsus imkoniyatlar sozlamalari: matn oʻlchami va rang rejimi;',
          'cookie-fayllar haqidagi xabarga bergan javobingiz;',
          'qaysi soʻrovnomalarda ovoz berganingiz;',
          'yuborilmagan murojaat: u brauzer varagʻi yopilguncha, tegishli katakchani belgilasangiz esa qurilmada 24 soat saqlanadi;',
          'internetsiz oʻqish uchun saqlangan, siz ochgan sahifalar nusxalari.',
        ],
      },
      {
        heading: 'Boshqa tashkilotlarning xizmatlari',
        paragraphs: [
          'Saytning ayrim qismlarida boshqa tashkilotlarning xizmatlari ishlatiladi. Ularning har biri faqat siz biror amal bajarganingizda yuklanadi. Yuklangach, xizmat IP-manzilingizni oladi va oʻz cookie-fayllarini saqlashi mumkin:',
        ],
        list: [
          'robot emasligingizni tekshiradigan hCaptcha xizmati murojaat yozishni boshlaganingizda yuklanadi;',
          'OpenStreetMap xaritani faqat “Xaritani koʻrsatish” tugmasini bosganingizdan keyin yuklaydi;',
          'video joylashgan sayt (masalan, YouTube) faqat videoni koʻrish tugmasini bosganingizdan keyin yuklanadi.',
        ],
      },
      {
        heading: 'Kuzatuv yoʻq',
        paragraphs: ['Saytda veb-tahlil, reklama va boshqa hech qanday kuzatuv vositalari ishlatilmaydi.', 'Soʻrovnomada bergan ovozingiz ismingizsiz yuboriladi.'],
      },
      {
        heading: 'Sizning huquqlaringiz',
        paragraphs: [
          'Hokimlikdan siz haqingizda qanday shaxsga doir maʼlumotlar borligini soʻrashingiz, ularni tuzatish yoki oʻchirishni talab qilishingiz mumkin.',
          'Buning uchun {email} manziliga yozing yoki {helpline} raqamiga qoʻngʻiroq qiling. Hokimlik manzili: {address}.',
        ],
      },
    ],
  },
  'uz-cyrl': {
    title: 'Махфийлик сиёсати',
    lead: '{siteName} ушбу сайт орқали шахсга доир маълумотларни фақат сиз мурожаат юборганингизда олади. Бу ерда нималар ва нима учун юборилиши, нималар фақат қурилмангизда сақланиши ва қандай ҳуқуқларингиз борлиги айтилган.',
    sections: [
      {
        heading: 'Мурожаат юборганингизда',
        paragraphs: ['«Мурожаат юбориш» шакли орқали мурожаат юборганингизда сайт ҳокимликнинг мурожаатлар тизимига қуйидагиларни узатади:'],
        list: ['исмингиз;', 'телефон рақамингиз;', 'электрон почта манзилингиз;', 'мурожаат мавзуси;', 'мурожаат матни.'],
      },
      {
        heading: 'Бу маълумотлар қандай ишлатилади',
        paragraphs: [
          'Ҳокимлик бу маълумотлардан фақат мурожаатингизга жавоб бериш учун фойдаланади.',
          'Улар Ўзбекистон Республикасининг «Жисмоний ва юридик шахсларнинг мурожаатлари тўғрисида»ги Қонуни талабларига мувофиқ сақланади.',
          'Шахсга доир маълумотларга Ўзбекистон Республикасининг «Шахсга доир маълумотлар тўғрисида»ги Қонунига мувофиқ ишлов берилади.',
        ],
      },
      {
        heading: 'Фақат қурилмангизда сақланадиган маълумотлар',
        paragraphs: ['Баъзи маълумотлар фақат қурилмангиздаги браузерда сақланади. Улар ҳеч қачон ҳокимликка ҳам, бошқа ҳеч кимга ҳам юборилмайди:'],
        list: [
          'танлаган тилингиз;',
          'махсус имкониятлар созламалари: матн ўлчами ва ранг режими;',
          'cookie-файллар ҳақидаги хабарга берган жавобингиз;',
          'қайси сўровномаларда овоз берганингиз;',
          'юборилмаган мурожаат: у браузер варағи ёпилгунча, тегишли катакчани белгиласангиз эса қурилмада 24 соат сақланади;',
          'интернетсиз ўқиш учун сақланган, сиз очган саҳифалар нусхалари.',
        ],
      },
      {
        heading: 'Бошқа ташкилотларнинг хизматлари',
        paragraphs: [
          'Сайтнинг айрим қисмларида бошқа ташкилотларнинг хизматлари ишлатилади. Уларнинг ҳар бири фақат сиз бирор амал бажарганингизда юкланади. Юклангач, хизмат IP-манзилингизни олади ва ўз cookie-файлларини сақлаши мумкин:',
        ],
        list: [
          'робот эмаслигингизни текширадиган hCaptcha хизмати мурожаат ёзишни бошлаганингизда юкланади;',
          'OpenStreetMap харитани фақат «Харитани кўрсатиш» тугмасини босганингиздан кейин юклайди;',
          'видео жойлашган сайт (масалан, YouTube) фақат видеони кўриш тугмасини босганингиздан кейин юкланади.',
        ],
      },
      {
        heading: 'Кузатув йўқ',
        paragraphs: ['Сайтда веб-таҳлил, реклама ва бошқа ҳеч қандай кузатув воситалари ишлатилмайди.', 'Сўровномада берган овозингиз исмингизсиз юборилади.'],
      },
      {
        heading: 'Сизнинг ҳуқуқларингиз',
        paragraphs: [
          'Ҳокимликдан сиз ҳақингизда қандай шахсга доир маълумотлар борлигини сўрашингиз, уларни тузатиш ёки ўчиришни талаб қилишингиз мумкин.',
          'Бунинг учун {email} манзилига ёзинг ёки {helpline} рақамига қўнғироқ қилинг. Ҳокимлик манзили: {address}.',
        ],
      },
    ],
  },
  ru: {
    title: 'Политика конфиденциальности',
    lead: '{siteName} получает через этот сайт персональные данные только тогда, когда вы отправляете обращение. Здесь сказано, что именно передаётся и зачем, что хранится только на вашем устройстве и какие у вас есть права.',
    sections: [
      {
        heading: 'Когда вы отправляете обращение',
        paragraphs: ['Когда вы отправляете обращение через форму «Отправить обращение», сайт передаёт в систему обращений хокимията:'],
        list: ['ваше имя;', 'номер телефона;', 'адрес электронной почты;', 'тему обращения;', 'текст обращения.'],
      },
      {
        heading: 'Как используются эти данные',
        paragraphs: [
          'Хокимият использует эти данные только для того, чтобы ответить на ваше обращение.',
          'Они хранятся в соответствии с требованиями Закона Республики Узбекистан «Об обращениях физических и юридических лиц».',
          'Персональные данные обрабатываются в соответствии с Законом Республики Узбекистан «О персональных данных».',
        ],
      },
      {
        heading: 'Что хранится только на вашем устройстве',
        paragraphs: ['Некоторые сведения хранятся только в браузере на вашем устройстве. Они никогда не отправляются ни в хокимият, ни кому-либо ещё:'],
        list: [
          'выбранный язык;',
          'настройки специальных возможностей: размер текста и цветовой режим;',
          'ваш ответ на уведомление о файлах cookie;',
          'опросы, в которых вы проголосовали;',
          'неотправленное обращение: оно хранится во вкладке браузера, пока вы её не закроете, а если вы отметите нужный пункт, — на устройстве в течение 24 часов;',
          'копии открытых вами страниц, чтобы их можно было читать без интернета.',
        ],
      },
      {
        heading: 'Сервисы других организаций',
        paragraphs: [
          'Некоторые части сайта используют сервисы других организаций. Каждый из них загружается, только когда вы что-то для этого делаете. После загрузки сервис получает ваш IP-адрес и может сохранять свои файлы cookie:',
        ],
        list: [
          'hCaptcha — проверка «я не робот» — загружается, когда вы начинаете заполнять обращение;',
          'OpenStreetMap загружает карту только после того, как вы нажмёте «Показать карту»;',
          'видеосервис, например YouTube, загружается только после того, как вы нажмёте кнопку воспроизведения.',
        ],
      },
      {
        heading: 'Без отслеживания',
        paragraphs: ['Сайт не использует веб-аналитику, рекламу и какое-либо другое отслеживание.', 'Голос в опросе отправляется без вашего имени.'],
      },
      {
        heading: 'Ваши права',
        paragraphs: [
          'Вы можете узнать, какие ваши персональные данные есть у хокимията, и потребовать исправить или удалить их.',
          'Для этого напишите на {email} или позвоните по номеру {helpline}. Адрес хокимията: {address}.',
        ],
      },
    ],
  },
  en: {
    title: 'Privacy notice',
    lead: '{siteName} receives personal data through this website only when you write to the administration. This notice explains what is sent and why, what stays on your device and what your rights are.',
    sections: [
      {
        heading: 'When you write to the administration',
        paragraphs: ['When you send a message with the "Write to the administration" form, the site passes the following to the administration\'s system for handling requests:'],
        list: ['your name', 'your phone number', 'your e-mail address', 'the subject of your message', 'the text of your message'],
      },
      {
        heading: 'How this data is used',
        paragraphs: [
          'The administration uses this data only to answer your message.',
          'It keeps the data as required by the Law of the Republic of Uzbekistan "On appeals of individuals and legal entities".',
          'Your personal data is handled under the Law of the Republic of Uzbekistan "On personal data".',
        ],
      },
      {
        heading: 'What stays on your device',
        paragraphs: ['Some things are kept only in the browser on your device. They are never sent to the administration or to anyone else:'],
        list: [
          'the language you chose',
          'your accessibility options: text size and colour mode',
          'your answer to the notice about cookies',
          'which surveys you have voted in',
          'a message you have not sent yet: it is kept in the browser tab until you close it, or on your device for 24 hours if you tick the box to keep it',
          'copies of pages you have opened, so that you can read them offline',
        ],
      },
      {
        heading: 'Services run by other organisations',
        paragraphs: [
          'Some parts of the site use services run by other organisations. Each one loads only when you do something. Once it has loaded, it receives your IP address and may keep its own cookies:',
        ],
        list: [
          'hCaptcha, the check that you are not a robot, loads when you start writing to the administration',
          'OpenStreetMap loads the map only after you press "Show the map"',
          'a video site, such as YouTube, loads only after you press the button to play the video',
        ],
      },
      {
        heading: 'No tracking',
        paragraphs: ['The site does not use analytics, advertising or any other tracking.', 'When you vote in a survey, your vote is sent without your name.'],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          'You can ask the administration what personal data it holds about you, and ask for it to be corrected or deleted.',
          "To do this, write to {email} or call {helpline}. The administration's address is {address}.",
        ],
      },
    ],
  },
};
