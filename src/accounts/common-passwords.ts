// Passwords that top every published list of leaked passwords, so that guessing tries them first.
// Only those of at least PASSWORD_MIN_LENGTH characters: shorter ones are refused anyway.
// Lower case: a password is compared in lower case.
const COMMON_PASSWORDS = `
12345678 123456789 1234567890 12345678910 0123456789 0987654321 987654321 87654321 98765432
11111111 111111111 1111111111 00000000 000000000 0000000000 22222222 88888888 99999999 66666666
12341234 12121212 11223344 112233445566 123123123 123321123 12344321 147258369 159753159 123654789
123456789a a123456789 12345678a a12345678 1234567a 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx
1qaz2wsx3edc zaq12wsx zaq1zaq1 q1w2e3r4 q1w2e3r4t5 qwer1234 1234qwer 1234abcd abcd1234 abc12345
abcdefgh abcdefg1 aaaaaaaa asdfasdf asdfghjk asdfghjkl qwertyui qwertyuiop qwerty123 qwerty12
qwerty1234 qwertyu1 qazwsxedc qazwsx123 zxcvbnm1 zxcvbnm123 azertyuiop password password1
password12 password123 password1234 passw0rd p@ssw0rd p@ssword passwort passwort1 wachtwoord
wachtwoord1 wachtwoord123 welkom01 welkom123 welcome1 welcome123 welcome12 letmein1 letmein123
changeme changeme1 changeme123 default1 admin123 admin1234 administrator root1234 test1234
testtest test12345 guest123 iloveyou iloveyou1 iloveyou2 loveyou1 lovelove sunshine sunshine1
princess princess1 football football1 baseball baseball1 basketball superman superman1 batman123
starwars starwars1 pokemon1 pokemon123 michelle jennifer jessica1 jordan23 michael1 charlie1
danielle alexander elizabeth christopher nicholas1 victoria computer computer1 internet whatever
whatever1 trustno1 corvette mercedes ferrari1 porsche1 liverpool liverpool1 chelsea1 arsenal1
barcelona manchester everton1 chocolate butterfly babygirl1 babygirl angel123 monkey123 dragon123
shadow123 master123 freedom1 midnight blink182 metallica slipknot samsung1 samsung123 iphone123
google123 facebook facebook1 instagram twitter1 linkedin minecraft fortnite roblox123 zaqxswcde
lol12345 hello123 hellohello 11qq22ww aa123456 aa12345678 qq123456 asd12345 asdf1234 zxcv1234
secret123 mypassword mypass123 newpassword 1password 1password1 passpass password01 password2
summer2024 summer2025 winter2024 winter2025 spring2025 autumn2025 welkom2024 welkom2025 qwerty2025
`;

export const commonPasswords: ReadonlySet<string> = new Set(COMMON_PASSWORDS.split(/\s+/).filter((word) => word !== ''));
