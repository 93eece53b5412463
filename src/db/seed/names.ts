// Names common in the UK, for a demo office that looks like a British operator's.
export const FEMALE_NAMES = [
  'Olivia', 'Amelia', 'Isla', 'Ava', 'Mia', 'Ivy', 'Lily', 'Freya', 'Grace', 'Sophia', 'Florence', 'Willow', 'Poppy',
  'Evie', 'Ella', 'Emily', 'Charlotte', 'Harriet', 'Sophie', 'Hannah', 'Lucy', 'Jessica', 'Chloe', 'Rebecca', 'Laura',
  'Sarah', 'Rachel', 'Emma', 'Claire', 'Helen', 'Joanne', 'Nicola', 'Kirsty', 'Siobhan', 'Aisha', 'Priya', 'Fatima',
  'Zara', 'Megan', 'Niamh', 'Eleanor', 'Imogen', 'Rosie', 'Alice', 'Katie',
];
export const MALE_NAMES = [
  'Oliver', 'George', 'Noah', 'Arthur', 'Leo', 'Harry', 'Oscar', 'Jack', 'Charlie', 'Thomas', 'James', 'William',
  'Henry', 'Alfie', 'Freddie', 'Samuel', 'Joseph', 'Daniel', 'Matthew', 'Ben', 'Luke', 'Ryan', 'Callum', 'Jamie',
  'Liam', 'Connor', 'Owen', 'Rhys', 'Dylan', 'Ewan', 'Hamish', 'Mohammed', 'Yusuf', 'Arjun', 'Rohan', 'David', 'Mark',
  'Paul', 'Andrew', 'Stuart', 'Gareth', 'Neil', 'Simon', 'Kieran', 'Toby',
];
export const SURNAMES = [
  'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Wright', 'Robinson',
  'Thompson', 'Evans', 'Walker', 'White', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke', 'Khan', 'Lewis',
  'Hughes', 'Edwards', 'Turner', 'Hill', 'Moore', 'Scott', 'Cooper', 'Ward', 'Morris', 'King', 'Baker', 'Harrison',
  'Morgan', 'Allen', 'Young', 'Mitchell', 'Phillips', 'Campbell', 'Anderson', 'Stewart', 'MacDonald', 'Murray', 'Reid',
  "O'Brien", 'Kelly', 'Murphy', 'Begum', 'Ali', 'Hussain', 'Shah', 'Singh', 'Chapman', 'Fletcher', 'Lloyd', 'Price',
  'Bennett', 'Griffiths', 'Rees', 'Pritchard', 'Fraser', 'Doyle',
];
