export default function Home() { return <p>orders service</p>; }
